// A WebSocket client of the price stream that records what it receives and how it was closed.
import { WebSocket } from 'ws';

export class StreamClient {
  readonly messages: any[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse((data as Buffer).toString()));
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens a connection (the handshake may still be followed by an immediate refusal close). */
  static connect(url: string): Promise<StreamClient> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new StreamClient(socket)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (from `from` on) matching `match`, waiting up to `timeoutMs`. */
  async waitFor(match: (m: any) => boolean, timeoutMs = 10_000, from = 0): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}
