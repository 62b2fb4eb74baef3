// The daily digest: one e-mail (and notification) per opted-in account that has alerts: what
// triggered in the last 24 hours and where each armed alert's card stands now. The schedule runs
// it daily; POST /alerts/digest-now runs it for the caller at once (capped: api/events/digestNow.ts). At most one scheduled digest
// per account and UTC day, however often the schedule fires.
import type pg from 'pg';
import { pgTransaction } from '../../sql/stores/db.js';
import { recordNotice } from './notify.js';

type DigestLine = {
  card_name: string;
  condition: string;
  target_price: number;
  currency: string;
  triggered_at: string | null;
  best_price: number | null;
};

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
  const { rows: users } = await pool.query<{ id: number; username: string; email: string }>(
    userId === null
      ? `SELECT u.id, u.username, u.email FROM users u
         WHERE u.email IS NOT NULL AND u.deleted_at IS NULL AND u.email_digest AND EXISTS (SELECT 1 FROM price_alerts a WHERE a.user_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM email_outbox o WHERE o.user_id = u.id AND o.kind = 'digest' AND o.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`
      : `SELECT id, username, email FROM users WHERE id = $1 AND email IS NOT NULL AND deleted_at IS NULL`,
    userId === null ? [] : [userId],
  );
  let queued = 0;
  for (const user of users) {
    const { rows: lines } = await pool.query<DigestLine>(
      `SELECT c.name AS card_name, a.condition, a.target_price::float8 AS target_price, a.currency,
              CASE WHEN a.triggered_at > now() - interval '24 hours' THEN to_char(a.triggered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') END AS triggered_at,
              b.best_price::float8 AS best_price
       FROM price_alerts a JOIN cards c ON c.id = a.card_id LEFT JOIN card_best_prices b ON b.card_id = a.card_id
       WHERE a.user_id = $1 AND (a.triggered_at IS NULL AND a.is_active OR a.triggered_at > now() - interval '24 hours')
       ORDER BY a.id`,
      [user.id],
    );
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
