// E-mail: every message is first a row of email_outbox (so nothing is lost and development can
// read it); with HOLO_SMTP_URL set, nodemailer sends unsent rows over SMTP and marks them.
import nodemailer from 'nodemailer';
import type pg from 'pg';
import { pgTransaction } from '../core/data.js';

export type OutboxMessage = { userId: number | null; to: string; kind: string; subject: string; text: string };

export async function queueEmail(db: pg.Pool | pg.PoolClient, m: OutboxMessage): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO email_outbox (user_id, to_address, kind, subject, body_text) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [m.userId, m.to, m.kind, m.subject, m.text],
  );
  return Number(rows[0]!.id);
}

export type Mailer = { configured: boolean; sendUnsent(limit?: number): Promise<{ sent: number; failed: number }>; close(): void };

export function createMailer(pool: pg.Pool, smtpUrl: string | undefined, from: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    configured: transport !== null,
    async sendUnsent(limit = 100) {
      if (!transport) return { sent: 0, failed: 0 };
      // Rows are claimed under SKIP LOCKED, so several workers never send one message twice.
      let sent = 0;
      let failed = 0;
      await pgTransaction(pool, async (client) => {
        const { rows } = await client.query<{ id: string; to_address: string; subject: string; body_text: string }>(
          'SELECT id, to_address, subject, body_text FROM email_outbox WHERE sent_at IS NULL AND attempts < 10 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
          [limit],
        );
        for (const row of rows) {
          try {
            await transport.sendMail({ from, to: row.to_address, subject: row.subject, text: row.body_text });
            await client.query('UPDATE email_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1', [row.id]);
            sent++;
          } catch (err) {
            await client.query('UPDATE email_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [row.id, String((err as Error).message).slice(0, 500)]);
            failed++;
          }
        }
      });
      return { sent, failed };
    },
    close: () => transport?.close(),
  };
}
