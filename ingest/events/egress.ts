// Requests Holo makes to addresses its users chose (webhook receivers). In production they may only
// reach public addresses: the URL is checked when registered, and every connection checks the
// addresses its host name resolves to at that moment, inside the socket's own lookup, so a name
// that later resolves (or rebinds) to an internal address is refused before anything is sent.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const INTERNAL = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(prefix, bits, 'ipv6');

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain']);

/**
 * True for loopback, private, link-local, shared, multicast and reserved addresses (IPv4, IPv6 and
 * IPv4-mapped IPv6), and for names that are loopback by definition. Other names are not resolved here.
 */
export function isInternalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(h) || h.endsWith('.localhost')) return true;
  const family = net.isIP(h);
  if (family === 4) return INTERNAL.check(h, 'ipv4');
  if (family === 6) return INTERNAL.check(h, 'ipv6');
  return false;
}

/** What the lookup asks: every address of a name (dns.lookup with all: true, the default). */
export type Resolver = (hostname: string, callback: (err: Error | null, addresses: dns.LookupAddress[]) => void) => void;
const systemResolver: Resolver = (hostname, callback) => dns.lookup(hostname, { all: true }, callback);

/** A socket lookup that fails when any address of the name is internal (the socket connects to what it returns). */
function publicLookup(resolve: Resolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const family = (options as dns.LookupOptions).family;
      const list = addresses.filter((a) => !family || family === a.family || family === `IPv${a.family}`);
      const internal = addresses.find((a) => isInternalHost(a.address));
      if (internal || list.length === 0) {
        const why = internal ? `an internal address (${internal.address})` : 'no usable address';
        return callback(
          Object.assign(new Error(`${hostname} resolves to ${why}; deliveries go to public addresses only`), { code: 'EHOLOINTERNAL' }),
          '',
          0,
        );
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export type PostResult = { status: number };

/**
 * POSTs `body` and resolves with the answer's status once its headers arrive (the answer's body is
 * discarded). Redirects are not followed. `publicOnly` refuses internal addresses, literal or resolved.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string | Buffer,
  opts: { timeoutMs: number; publicOnly: boolean; resolver?: Resolver },
): Promise<PostResult> {
  const target = new URL(url);
  if (opts.publicOnly && isInternalHost(target.hostname))
    return Promise.reject(new Error(`${target.hostname} is an internal address; deliveries go to public addresses only`));
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(opts.timeoutMs),
        ...(opts.publicOnly ? { lookup: publicLookup(opts.resolver ?? systemResolver) } : {}),
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
