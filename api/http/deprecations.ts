// Deprecated endpoints, declared once: each answers with `Deprecation: true`, a `Sunset` date
// (RFC 8594) and a Link to its successor, and says so in the OpenAPI document, the developer
// portal's change log and its dashboard banner.
export type Deprecation = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  announced: string;
  sunset: string;
  successor: string;
};

export const DEPRECATIONS: Deprecation[] = [
  { method: 'get', path: '/api/market-movers', announced: '2026-11-22', sunset: '2027-06-30', successor: '/api/market/movers' },
];

export function deprecationOf(method: string, path: string): Deprecation | undefined {
  return DEPRECATIONS.find((d) => d.method === method && d.path === path);
}

/** The response headers of a deprecated endpoint. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  return {
    Deprecation: 'true',
    Sunset: new Date(`${d.sunset}T00:00:00Z`).toUTCString(),
    Link: `<${d.successor}>; rel="successor-version"`,
  };
}
