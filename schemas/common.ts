// Shared zod building blocks. Every request and response shape is declared with these, and the
// same declarations produce validation, TypeScript types and the OpenAPI document.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);
export { z };

/** The integer parameters, so that the router knows which path segments can only be digits. */
export const integerParams = new WeakSet<z.ZodType>();

/** The largest integer a parameter carries: 15 digits, all a double holds exactly. */
export const INT_PARAM_MAX = 999_999_999_999_999;

/**
 * An integer carried as text (query or path), with bounds; the OpenAPI type is integer, and its
 * maximum is always stated (INT_PARAM_MAX when the caller gives none), so a larger one is a
 * refusal the document announces.
 */
export function intParam(opts: { min?: number; max?: number; description?: string } = {}) {
  const max = opts.max ?? INT_PARAM_MAX;
  let n = z.number().int().max(max);
  if (opts.min !== undefined) n = n.min(opts.min);
  const param = z
    .string()
    .trim()
    // Integer-valued decimal text too ("2.0"): JSON Schema counts 2.0 as an integer, and the
    // document says `type: integer`, so a client (or a fuzzer) may send it. "2.5" is still refused.
    .regex(/^[+-]?\d{1,15}(\.0+)?$/, { message: 'value is not a valid integer' })
    .transform(Number)
    .pipe(n)
    .openapi({ type: 'integer', minimum: opts.min, maximum: max, description: opts.description });
  integerParams.add(param);
  return param;
}

/**
 * A decimal number carried as text (query), in the notation the document's `type: number` means:
 * digits with an optional fraction and exponent. z.coerce.number() would read a blank value as 0
 * and '0x10' as 16, accepting what the document refuses.
 */
export const numberText = () =>
  z
    .string()
    .trim()
    .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/, { message: 'value is not a valid number' })
    .transform(Number);

/** A number parameter with bounds, documented with them. */
export function numberParam(opts: { min: number; max: number; description?: string }) {
  return numberText()
    .pipe(z.number().min(opts.min).max(opts.max))
    .openapi({ type: 'number', minimum: opts.min, maximum: opts.max, description: opts.description });
}

/** The largest id a PostgreSQL integer column holds. */
export const PG_INT_MAX = 2147483647;

/**
 * One to `max` comma-separated ids in a query parameter. At most nine digits each, so that every
 * value the published pattern admits fits an integer column (a tenth digit could pass 2^31 - 1).
 */
export function idList(opts: { max: number; what: string }) {
  const pattern = `^\\s*\\d{1,9}\\s*(,\\s*\\d{1,9}\\s*){0,${opts.max - 1}}$`;
  return z
    .string()
    .regex(new RegExp(pattern), { message: `one to ${opts.max} comma-separated ${opts.what} ids` })
    .transform((s) => [...new Set(s.split(',').map((x) => Number(x.trim())))])
    .openapi({ type: 'string', pattern, example: '1,2,3' });
}

/**
 * A grade, in half steps from 1 to 10, checked exactly (doubling a double is exact): zod's
 * multipleOf forgives 7.499999999999999, which the document's `multipleOf: 0.5` refuses.
 */
export const grade = z
  .number()
  .min(1)
  .max(10)
  .refine((n) => Number.isInteger(n * 2), { message: 'a grade goes in steps of 0.5' })
  .openapi({ multipleOf: 0.5 });

/**
 * A money amount from a request: kept in numeric(18, 4) columns, so at least 0.0001 (a smaller
 * positive amount would round to zero) and rounded to four decimals by the database.
 */
export function money(opts: { max: number }) {
  return z.number().min(0.0001).max(opts.max);
}

// Text is trimmed before its length is checked, so a required field of spaces is refused: the
// document says so with a pattern that asks for one character that is not blank (JavaScript's
// trim(): Unicode spaces, line breaks and the byte order mark), as a client's validator reads it.
const BLANKS = ' \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff\\t\\n\\r';
const tooShort = (min: number) => (min === 1 ? 'must not be blank' : `must have at least ${min} characters besides surrounding spaces`);

/**
 * Text from a request without the characters `refused` (a regular-expression class body): trimmed,
 * bounded; when required, documented as holding one character that is not blank.
 */
function trimmedText(refused: string, message: string) {
  const allowed = new RegExp(`^[^${refused}]*$`);
  const notBlank = `^[^${refused}]*[^${refused}${BLANKS}][^${refused}]*$`;
  return (opts: { min?: number; max: number }) => {
    const min = opts.min ?? 1;
    const field = z
      .string()
      .trim()
      .min(min, { message: tooShort(min) })
      .max(opts.max)
      .regex(allowed, { message });
    return min > 0 ? field.openapi({ pattern: notBlank }) : field;
  };
}

/**
 * The characters of text as people write it: anything but control characters, except tabs and
 * line breaks (LF, CR). PostgreSQL refuses NUL; the others have no place in what people read.
 */
const FREE_TEXT_REFUSED = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f';
export const FREE_TEXT_PATTERN = new RegExp(`^[^${FREE_TEXT_REFUSED}]*$`);
const FREE_TEXT_MESSAGE = 'control characters other than tabs and line breaks are not allowed';

/**
 * Free text from a request (messages, descriptions, bios and policies, reviews, report details,
 * notes, release notes): trimmed, bounded, with line breaks and tabs; the one rule for all of them.
 */
export const freeText = trimmedText(FREE_TEXT_REFUSED, FREE_TEXT_MESSAGE);

/** Free text as a whole document, not trimmed (a deck list): the same characters. */
export function freeTextDocument(opts: { max: number }) {
  return z.string().min(1).max(opts.max).regex(FREE_TEXT_PATTERN, { message: FREE_TEXT_MESSAGE });
}

/**
 * One line of text from a request (names, titles, subjects, identifiers, search terms): trimmed,
 * bounded, and free of control characters, line breaks included.
 */
export const text = trimmedText('\\u0000-\\u001f\\u007f', 'control characters are not allowed');

/**
 * A username as a request names another account (a recipient, a profile): one line of text, so a
 * NUL never reaches PostgreSQL (which refuses it); a name nobody has is the operation's 404.
 */
export const usernameRef = text({ max: 64 });

export const ErrorResponse = z
  .object({
    detail: z.string(),
    error: z.string().optional().openapi({ description: 'a machine-readable reason, where the operation names one (buy-now)' }),
  })
  .openapi('Error');

export const ValidationErrorResponse = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number()])),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .openapi('ValidationError');

export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
    message: 'not a calendar date',
  })
  .openapi({ format: 'date', example: '2026-06-04' });

/** The days ClickHouse's Date holds, and so every day a price can be stored for. */
export const DAY_RANGE = { first: '1970-01-01', last: '2149-06-06' } as const;

/**
 * The days of DAY_RANGE as a pattern, so that the document states the range (a date format has no
 * minimum or maximum in OpenAPI): 1970 to 2148, then 2149-01 to 2149-05, then 2149-06-01 to -06.
 */
const DAY_RANGE_PATTERN = '^(?:(?:19[7-9]\\d|20\\d\\d|21[0-3]\\d|214[0-8])-\\d{2}-\\d{2}|2149-0[1-5]-\\d{2}|2149-06-0[1-6])$';

/** A day in a request: a calendar date within DAY_RANGE (outside it: a 422 naming the parameter). */
const inDayRange = new RegExp(DAY_RANGE_PATTERN);
export const DayParam = IsoDate.refine((d) => inDayRange.test(d), {
  message: `a day from ${DAY_RANGE.first} to ${DAY_RANGE.last}`,
}).openapi({ format: 'date', pattern: DAY_RANGE_PATTERN, example: '2026-06-04' });

/**
 * An instant in ISO 8601 with its offset (RFC 3339), handed on in UTC with its fraction of a second
 * kept (the feeds compare microsecond timestamps). zod accepts any offset up to ±23:59 and any year
 * from 0000; PostgreSQL takes offsets up to ±15:59 and no year 0000, so the instant is moved to UTC
 * here and must fall within the years 0001 to 9999 there.
 */
export const Instant = z.iso
  .datetime({ offset: true })
  .transform((s, ctx) => {
    const [, local, fraction = '', offset] = /^(.+?T[\d:]+)(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.exec(s) ?? [];
    const utc = local === undefined ? undefined : new Date(`${local}${offset}`);
    const iso = utc && !Number.isNaN(utc.getTime()) ? utc.toISOString() : '';
    if (!/^\d{4}-/.test(iso) || iso.startsWith('0000-')) {
      ctx.addIssue({ code: 'custom', message: 'an instant between the years 0001 and 9999 in UTC' });
      return z.NEVER;
    }
    return `${iso.slice(0, 19)}${fraction}Z`;
  })
  .openapi({ type: 'string', format: 'date-time', example: '2026-11-23T00:00:00Z' });
