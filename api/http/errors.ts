// One error vocabulary. Handlers throw these; the error middleware maps them to the spec's shapes.
import type { z } from 'zod';
import { DomainError, type DomainErrorKind } from '../../schemas/errors.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code?: string,
  ) {
    super(detail);
  }
}

/** The status of each domain error kind: the one mapping from the domain's vocabulary to HTTP. */
export const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

export function httpErrorOf(err: DomainError): HttpError {
  return new HttpError(DOMAIN_ERROR_STATUS[err.kind], err.detail, err.code);
}

/** 429: the caller may try again after `retryAfterSeconds` (the error middleware sends it as Retry-After). */
export class TooManyRequestsError extends HttpError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, detail);
  }
}

export class NotFoundError extends HttpError {
  constructor(what: string) {
    super(404, `${what} not found`);
  }
}

export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };

export class ValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super('validation failed');
  }
}

export const DATA_UNAVAILABLE = 'holo_data_unavailable';

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), input);

// zod issue → the FastAPI-style error type names the spec's clients already know. zod does not
// report the offending input, so "missing" is decided from the request's own value.
function issueType(issue: z.core.$ZodIssue, missing: boolean): string {
  // A required enum field that is absent is "missing" too, not an invalid choice.
  if (missing && issue.code === 'invalid_value') return 'value_error.missing';
  switch (issue.code) {
    case 'invalid_type':
      return missing ? 'value_error.missing' : `type_error.${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string' ? 'value_error.any_str.min_length' : 'value_error.number.not_ge';
    case 'too_big':
      return issue.origin === 'string' ? 'value_error.any_str.max_length' : 'value_error.number.not_le';
    case 'invalid_value':
      return 'type_error.enumeration';
    case 'invalid_format':
      return issue.format === 'regex' && issue.message === 'value is not a valid integer' ? 'type_error.integer' : 'value_error.str.regex';
    case 'unrecognized_keys':
      return 'value_error.extra';
    default:
      return 'value_error';
  }
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown): string {
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && value === undefined) return 'field required';
  if (issue.code === 'invalid_type' && Array.isArray(value)) return 'expected a single value, got the parameter repeated';
  if (issue.code === 'unrecognized_keys') return 'extra fields not permitted';
  return issue.message;
}

export function fromZod(source: 'query' | 'path' | 'body', error: z.ZodError, input: unknown): ValidationError {
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ loc: [source, key], msg: issueMessage(issue, undefined), type: issueType(issue, false) });
    } else {
      const value = valueAt(input, issue.path);
      issues.push({
        loc: [source, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
        msg: issueMessage(issue, value),
        type: issueType(issue, value === undefined),
      });
    }
  }
  return new ValidationError(issues);
}
