// A real SMTP server on loopback (smtp-server, the receiving half of nodemailer's project): it
// requires the credentials of HOLO_SMTP_URL, can refuse chosen recipients, and keeps every
// accepted message raw, as a mail relay would get it.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string };

/** A header of a raw message, unfolded, with RFC 2047 encoded words (names like Pokémon) decoded. */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?') // whitespace between two encoded words is not part of the text
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

export async function startSmtpReceiver(opts: { user: string; pass: string }) {
  const received: ReceivedMail[] = [];
  const refused = new Set<string>();
  const server = new SMTPServer({
    // Plain SMTP on loopback: STARTTLS would need a certificate the sender trusts.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.user && auth.password === opts.pass) return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address))
        return callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 450 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: headerOf(raw, 'Subject') ?? '',
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.pass)}@127.0.0.1:${port}`,
    received,
    /** Answers 450 (mailbox unavailable, try later) for this recipient until accepted again. */
    refuse: (address: string) => void refused.add(address),
    accept: (address: string) => void refused.delete(address),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
