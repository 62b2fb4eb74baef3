/**
 * Promise.all that waits for every promise before failing: when one branch fails (or a cancelled
 * activity's progress throws in one lane), the others are still writing, and whoever closes the
 * stores next must not do so under them. Resolves with every value, or rejects with the first
 * failure once all have settled.
 */
export async function settleAll<const P extends readonly Promise<unknown>[]>(
  promises: P,
): Promise<{ -readonly [K in keyof P]: Awaited<P[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof P]: Awaited<P[K]> };
}
