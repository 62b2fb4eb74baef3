// E-mail: every message is first a row of email_outbox (so nothing is lost and development can
// read it); with HOLO_SMTP_URL set, nodemailer sends unsent rows over SMTP and marks them.
import nodemailer from 'nodemailer';
import type pg from 'pg';
import { sqlFile } from '../../sql/sqlFile.js';

export type OutboxMessage = { userId: number | null; to: string; kind: string; subject: string; text: string };

export async function queueEmail(db: pg.Pool | pg.PoolClient, m: OutboxMessage): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO email_outbox (user_id, to_address, kind, subject, body_text) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [m.userId, m.to, m.kind, m.subject, m.text],
  );
  return Number(rows[0]!.id);
}

export type Mailer = { configured: boolean; sendUnsent(limit?: number): Promise<{ sent: number; failed: number }>; close(): void };

/** A message is tried this many times (once per send run) before it waits for an operator. */
export const EMAIL_MAX_ATTEMPTS = 10;
/** How long a worker owns the rows it claimed: longer than a batch takes to send. */
const CLAIM_SECONDS = 300;

export function createMailer(pool: pg.Pool, smtpUrl: string | undefined, from: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    configured: transport !== null,
    async sendUnsent(limit = 100) {
      if (!transport) return { sent: 0, failed: 0 };
      const { rows } = await pool.query<{ id: string; to_address: string; subject: string; body_text: string }>(
        sqlFile('postgres/queries/email_outbox_claim.sql'),
        [limit, CLAIM_SECONDS, EMAIL_MAX_ATTEMPTS],
      );
      let sent = 0;
      let failed = 0;
      // Each row is marked on its own the moment its SMTP exchange ends; no transaction spans a send.
      for (const row of rows) {
        try {
          await transport.sendMail({ from, to: row.to_address, subject: row.subject, text: row.body_text });
          await pool.query(
            'UPDATE email_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL, claimed_until = NULL WHERE id = $1',
            [row.id],
          );
          sent++;
        } catch (err) {
          await pool.query('UPDATE email_outbox SET attempts = attempts + 1, last_error = $2, claimed_until = NULL WHERE id = $1', [
            row.id,
            String((err as Error).message).slice(0, 500),
          ]);
          failed++;
        }
      }
      return { sent, failed };
    },
    close: () => transport?.close(),
  };
}
