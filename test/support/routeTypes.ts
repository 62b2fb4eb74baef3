// Type-level only: the body type of the route a (method, path) call reaches, from the routes'
// own zod response schemas (api/http/route.ts keeps each route's method, path and body in its type).
import type { allRoutes } from '../../api/app.js';

type ApiRoute = ReturnType<typeof allRoutes>[number];

type Split<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Split<Tail>] : [S];
type WithoutQuery<S extends string> = S extends `${infer Path}?${string}` ? Path : S;

// A declared segment matches a called one: a {parameter} takes any segment, a fixed one only itself
// (a called segment known only as `${string}` or `${number}` is taken for a parameter's value).
type SegmentMatches<Declared extends string, Called extends string> = Declared extends `{${string}}`
  ? true
  : [Called] extends [Declared]
    ? true
    : false;
type SegmentsMatch<Declared extends string[], Called extends string[]> = Declared extends [
  infer D extends string,
  ...infer DRest extends string[],
]
  ? Called extends [infer C extends string, ...infer CRest extends string[]]
    ? SegmentMatches<D, C> extends true
      ? SegmentsMatch<DRest, CRest>
      : false
    : false
  : Called extends []
    ? true
    : false;

type Matching<Method extends string, Path extends string> = ApiRoute extends infer R
  ? R extends { method: infer M extends string; path: infer P extends string }
    ? Method extends M
      ? string extends P
        ? never
        : MatchesAny<P, Split<WithoutQuery<Path>>> extends true
          ? R
          : never
      : never
    : never
  : never;
// A route declared at several paths matches when one of them does.
type MatchesAny<Declared extends string, Called extends string[]> = true extends (
  Declared extends string ? SegmentsMatch<Split<Declared>, Called> : never
)
  ? true
  : false;
// Fixed paths win over parameterised ones, as the router mounts them (/api/v2/cards/resolve before {card_id}).
type Preferred<R> = [Extract<R, { path: `${string}{${string}` }>] extends [never]
  ? R
  : [Exclude<R, { path: `${string}{${string}` }>] extends [never]
    ? R
    : Exclude<R, { path: `${string}{${string}` }>;

type BodyOfRoute<R> = R extends { responseBody?: infer B } ? B : never;

/** A JSON Schema as the OpenAPI document states one: the keywords the tests read. */
type JsonSchema = {
  type?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  enum?: (string | number | boolean)[];
  example?: string | number | boolean;
  default?: string | number | boolean;
  anyOf?: JsonSchema[];
  properties: Record<string, JsonSchema>;
};
type OpenApiOperation = {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  responses: Record<string, unknown>;
};
/** GET /openapi.json, generated from every route rather than declared by one: typed from OpenAPI 3.1's own shape. */
export type OpenApiJson = {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
};

/** The JSON body type of a success of the route `METHOD path` reaches; unknown when no declared route is known to match. */
export type ResponseBody<Method extends string, Path extends string> = string extends Path
  ? unknown
  : [Lowercase<Method>, Path] extends ['get', '/openapi.json']
    ? OpenApiJson
    : [Matching<Lowercase<Method>, Path>] extends [never]
      ? unknown
      : BodyOfRoute<Preferred<Matching<Lowercase<Method>, Path>>>;
