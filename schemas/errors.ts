// The domain's error vocabulary. Services below the HTTP edge throw these; the edge maps each kind
// to its status code in one place (api/http/errors.ts), so a service runs the same from a handler,
// a Temporal activity or a test.
export type DomainErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict';

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

/** A row that does not exist, or is not the caller's (the two are not told apart). */
export class NotFound extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}
