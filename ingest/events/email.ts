// E-mail: every message is first a row of email_outbox (so nothing is lost and development can
// read it); with HOLO_SMTP_URL set, nodemailer sends unsent rows over SMTP and marks them.
import nodemailer from 'nodemailer';
import type pg from 'pg';
import { claimOutboxEmails, markEmailFailed, markEmailSent, queueOutboxEmail } from '../../sql/notifications.js';
import type { PgRunner } from '../../sql/typedQuery.js';

export type OutboxMessage = { userId: number | null; to: string; kind: string; subject: string; text: string };

export async function queueEmail(db: PgRunner, m: OutboxMessage): Promise<number> {
  const [row] = await queueOutboxEmail(db, m.userId, m.to, m.kind, m.subject, m.text);
  return row!.id;
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
      const rows = await claimOutboxEmails(pool, limit, CLAIM_SECONDS, EMAIL_MAX_ATTEMPTS);
      let sent = 0;
      let failed = 0;
      // Each row is marked on its own the moment its SMTP exchange ends; no transaction spans a send.
      for (const row of rows) {
        try {
          await transport.sendMail({ from, to: row.to_address, subject: row.subject, text: row.body_text });
          await markEmailSent(pool, row.id);
          sent++;
        } catch (err) {
          await markEmailFailed(pool, row.id, String((err as Error).message).slice(0, 500));
          failed++;
        }
      }
      return { sent, failed };
    },
    close: () => transport?.close(),
  };
}
