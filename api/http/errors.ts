// The edge's side of the one error vocabulary: services throw DomainError kinds (schemas/errors.ts),
// the route layer also ValidationError (a request that fails its route's schemas); the error
// middleware answers them in the spec's shapes. Only the edge imports this module (lint).
import type { z } from 'zod';
import { InvalidInput, RateLimited, type DomainError, type DomainErrorKind, type InputIssue } from '../../schemas/errors.js';

/** The status of each domain error kind: the one mapping from the domain's vocabulary to HTTP. */
const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  invalid_input: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  upgrade_required: 426,
  rate_limited: 429,
  unavailable: 503,
};

/** A domain error as the response the edge sends: its status, `{detail}` (and `error`), and Retry-After when it has one. */
export function responseOf(err: DomainError): { status: number; body: { detail: string; error?: string }; retryAfter?: number } {
  return {
    status: DOMAIN_ERROR_STATUS[err.kind],
    body: err.code ? { detail: err.detail, error: err.code } : { detail: err.detail },
    ...(err instanceof RateLimited ? { retryAfter: err.retryAfterSeconds } : {}),
  };
}

export type ValidationIssue = InputIssue;

/** A request that fails its route's schemas (fromZod), or a rule the route layer checks: 422 as any InvalidInput. */
export class ValidationError extends InvalidInput {}

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
