// Money to the cent (issue 34). A request's amount is a JSON number with at most two decimals (a
// third is a 422 naming the field, and the document says `multipleOf: 0.01`); inside, amounts are
// whole cents (integers, exact), PostgreSQL keeps them as numeric(12, 2), and answers divide the
// cents by 100 again, which JSON prints as the two-decimal amount it is.
import { z } from './common.js';

/** A decimal with at most two decimals, as text. */
const TWO_DECIMALS = /^-?\d+(\.\d{1,2})?$/;

/**
 * An amount of money from a request, in the currency's units, at most two decimals as written: the
 * number's shortest decimal form is checked, not zod's multipleOf, which forgives a float's rounding
 * error (0.9999999999999999 passed as 1.00) where a client's JSON Schema validator refuses it.
 */
export function centAmount(opts: { min: number; max: number; description?: string }) {
  return (
    z
      .number()
      .min(opts.min)
      .max(opts.max)
      .refine((n) => TWO_DECIMALS.test(String(n)), { message: 'an amount has at most two decimals (whole cents)' })
      // Said in the document as the multipleOf it is.
      .openapi({ multipleOf: 0.01, description: opts.description })
  );
}

/** An amount in whole cents from one with at most two decimals (exact: its double is within an ulp of n/100). */
export function toCents(amount: number): number {
  const cents = Math.round(amount * 100);
  if (!Number.isSafeInteger(cents) || Math.abs(cents - amount * 100) > 1e-6 * Math.max(1, Math.abs(cents)))
    throw new RangeError(`${amount} is not a whole number of cents`);
  return cents;
}

/** Whole cents as the amount answers carry. */
export const fromCents = (cents: number): number => cents / 100;

/** Whole cents as the decimal text PostgreSQL's numeric takes exactly ("12.30"). */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `part` of `cents` at `basisPoints` / 10,000, rounded half up to the cent, in integers only. */
export const shareOf = (cents: number, basisPoints: number): number => Math.floor((cents * basisPoints + 5_000) / 10_000);

/**
 * A numeric(12, 2) column as the pg driver hands it over (text, exact), read as the amount answers
 * carry; a row that is not a two-decimal number fails loudly rather than shifting a cent.
 */
export const pgAmount = z
  .string()
  .regex(TWO_DECIMALS, 'a numeric with at most two decimals')
  .transform((s) => fromCents(Math.round(Number(s) * 100)));
