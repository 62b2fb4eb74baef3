// Reads a server-sent event stream into an array as it arrives; waitFor polls it.
import assert from 'node:assert/strict';

export type SseEvent = { id: number | null; event: string; data: any };

export async function readSse(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  let ended = false;
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return void (ended = true);
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ id: id === undefined ? null : Number(id), event, data: JSON.parse(data) });
      }
    }
  })();
  const waitFor = async (what: string, until: (e: SseEvent[]) => boolean) => {
    for (let i = 0; i < 400 && !until(events); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(until(events), `${what}: ${JSON.stringify(events.map((e) => e.event))}`);
  };
  return { res, events, waitFor, ended: () => ended, close: () => (controller.abort(), pump) };
}
