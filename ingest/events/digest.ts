// The daily digest: one e-mail (and notification) per opted-in account that has alerts: what
// triggered in the last 24 hours and where each armed alert's card stands now. The schedule runs
// it daily; POST /alerts/digest-now runs it for the caller at once (capped in
// api/events/digestNow.ts). At most one scheduled digest per account and UTC day, however often
// the schedule fires.
import type pg from 'pg';
import { pgTransaction } from '../../sql/stores/db.js';
import { recordNotice } from './notify.js';
import { digestAccount, digestAccountsDue, digestLines, type DigestLine } from '../../sql/notifications.js';

function compose(username: string, lines: DigestLine[]): { title: string; text: string } {
  const triggered = lines.filter((l) => l.triggered_at);
  const armed = lines.filter((l) => !l.triggered_at);
  const parts = [`Hello ${username},`, ''];
  parts.push(triggered.length ? `Triggered in the last 24 hours (${triggered.length}):` : 'No alert triggered in the last 24 hours.');
  for (const l of triggered)
    parts.push(`  - ${l.card_name}: ${l.condition} ${l.currency} ${l.target_price.toFixed(2)} (at ${l.triggered_at})`);
  if (armed.length) {
    parts.push('', `Watching (${armed.length}):`);
    for (const l of armed)
      parts.push(
        `  - ${l.card_name}: ${l.condition} ${l.currency} ${l.target_price.toFixed(2)}; now USD ${l.best_price === null ? 'n/a' : l.best_price.toFixed(2)}`,
      );
  }
  return { title: `Your Holo digest: ${triggered.length} triggered, ${armed.length} watching`, text: parts.join('\n') };
}

/** Queues digests: for one account now (`userId`), or for every opted-in account not yet sent one today. */
export async function queueDigests(pool: pg.Pool, userId: number | null): Promise<number> {
  const users = userId === null ? await digestAccountsDue(pool) : await digestAccount(pool, userId);
  let queued = 0;
  for (const user of users) {
    const lines = await digestLines(pool, user.id);
    const { title, text } = compose(user.username, lines);
    await pgTransaction(pool, (client) =>
      recordNotice(client, {
        userId: user.id,
        kind: 'digest',
        title,
        body: text,
        data: { alerts: lines.length },
        email: { to: user.email, subject: title, text },
      }),
    );
    queued++;
  }
  return queued;
}
