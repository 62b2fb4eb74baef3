// chDB sessions of their own beside the store's client, for work that must not share its session:
// the data teams' reads (a session under readonly and limits, which once set cannot be lifted
// again) and streamed exports (chDB streams one result per session at a time). Each pool holds a
// few sessions on the same data directory and lends one per query.
import { Session } from 'chdb';

export type ChdbSession = InstanceType<typeof Session>;

export type SessionPool = {
  /** Runs `work` with a session of the pool to itself. */
  use<T>(work: (session: ChdbSession) => Promise<T>): Promise<T>;
  /**
   * Streams a query's result in `format`, chunk by chunk, holding a session until the last chunk
   * is read or the consumer stops. `params` binds {name:Type} placeholders.
   */
  stream(query: string, params: Record<string, string>, format: string, signal?: AbortSignal): AsyncGenerator<Buffer>;
  close(): void;
};

/** `setup` runs once in each new session (e.g. USE and SET statements; readonly last). */
export function openSessionPool(path: string, size: number, setup: string[]): SessionPool {
  const idle: ChdbSession[] = [];
  const all: ChdbSession[] = [];
  const waiting: ((s: ChdbSession) => void)[] = [];
  let closed = false;

  const acquire = async (): Promise<ChdbSession> => {
    if (closed) throw new Error('clickhouse session pool closed');
    const free = idle.pop();
    if (free) return free;
    if (all.length < size) {
      const session = new Session(path);
      all.push(session);
      for (const statement of setup) await session.queryAsync(statement, { format: 'TSV' });
      return session;
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (session: ChdbSession) => {
    const next = waiting.shift();
    if (next) next(session);
    else idle.push(session);
  };
  // A query that fails leaves its partial output in chDB's session, where it would open the next
  // query's answer: such a session is closed and a fresh one takes its place.
  const discard = (session: ChdbSession) => {
    session.close();
    all.splice(all.indexOf(session), 1);
    const next = waiting.shift();
    if (next) acquire().then(next, () => undefined);
  };

  return {
    async use(work) {
      const session = await acquire();
      let result;
      try {
        result = await work(session);
      } catch (err) {
        discard(session);
        throw err;
      }
      release(session);
      return result;
    },
    async *stream(query, params, format, signal) {
      const session = await acquire();
      let clean = false;
      try {
        const stream =
          Object.keys(params).length > 0
            ? session.queryStreamBind(query, params, { format, signal })
            : session.queryStream(query, { format, signal });
        try {
          for await (const chunk of stream) yield Buffer.from(chunk.raw());
          clean = true;
        } finally {
          if (!stream.closed) stream.cancel();
        }
      } finally {
        // A stream stopped early or failed may leave output behind, as a failed query does.
        if (clean) release(session);
        else discard(session);
      }
    },
    close() {
      closed = true;
      for (const s of all) s.close();
    },
  };
}
