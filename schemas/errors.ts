// The domain's error vocabulary, the only one below the HTTP edge. Services, auth, recognition and
// route handlers throw these; the edge maps each kind to its status code in one place
// (api/http/errors.ts), so a service runs the same from a handler, a Temporal activity or a test.
export type DomainErrorKind =
  | 'invalid'
  /** Input that breaks a rule of its fields (a date too far back, a photo too small): InvalidInput lists where and why. */
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** The input is larger than accepted (a photo over the pixel limit, an upload over the byte limit). */
  | 'too_large'
  /** The input's format is not one accepted (a file that is not a readable picture). */
  | 'unsupported_media_type'
  /** The caller must speak another protocol (the price stream is a WebSocket). */
  | 'upgrade_required'
  /** Past a limit: RateLimited says when to retry. */
  | 'rate_limited'
  /** A service this depends on cannot be reached now (Temporal); the data stores may be fine. */
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly detail: string,
    /** A machine-readable reason, answered as `error` beside `detail` (the spec's buy-now table). */
    readonly code?: string,
  ) {
    super(detail);
  }
}

/** One problem with a request's input: where (`loc`, led by query, path or body), what, and its type's name. */
export type InputIssue = { loc: (string | number)[]; msg: string; type: string };

/**
 * Input a service refuses field by field, answered as the schemas' own validation failures are
 * (422 with `detail` the list of issues), so a client reads both alike.
 */
export class InvalidInput extends DomainError {
  constructor(readonly issues: InputIssue[]) {
    super('invalid_input', 'validation failed');
  }
}

/** A row that does not exist, or is not the caller's (the two are not told apart). */
export class NotFound extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}

/** Past a limit: the caller may try again after `retryAfterSeconds` (the edge sends it as Retry-After). */
export class RateLimited extends DomainError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', detail);
  }
}
