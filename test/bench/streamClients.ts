// One process of WebSocket subscribers for the real-time benchmark: opens `count` connections,
// subscribes each to one card, answers pings, connects from the source address it is given, and records when each price_update arrives
// (market_price carries the round number). Talks to its parent over IPC.
import { WebSocket } from 'ws';

type Job = { url: string; count: number; cards: number; localAddress: string };
const arrivals = new Map<number, number[]>(); // round → absolute arrival times (ms)
const now = () => performance.timeOrigin + performance.now();
const sockets: WebSocket[] = [];

async function open(job: Job, i: number): Promise<void> {
  const ws = new WebSocket(job.url, { localAddress: job.localAddress });
  sockets.push(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString());
      if (m.type === 'subscribed') resolve();
      else if (m.type === 'ping') ws.send('{"type":"pong"}');
      else if (m.type === 'price_update') {
        const list = arrivals.get(m.data.market_price) ?? [];
        list.push(now());
        arrivals.set(m.data.market_price, list);
      }
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', topics: [`card:${(i % job.cards) + 1}`] })));
  });
}

process.on('message', async (msg: { kind: 'open'; job: Job } | { kind: 'collect' } | { kind: 'close' }) => {
  if (msg.kind === 'open') {
    for (let i = 0; i < msg.job.count; i += 250)
      await Promise.all(Array.from({ length: Math.min(250, msg.job.count - i) }, (_, k) => open(msg.job, i + k)));
    process.send!({ kind: 'ready', open: sockets.length });
  } else if (msg.kind === 'collect') {
    process.send!({ kind: 'arrivals', arrivals: Object.fromEntries(arrivals) });
  } else {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
