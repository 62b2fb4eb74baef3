// The load generator, in its own process so it never shares an event loop with a server.
// argv[2]: a JSON file {url, paths, connections, duration?, amount?, accept?, headers?}; prints one JSON result line.
import fs from 'node:fs';
import autocannon from 'autocannon';

type Job = {
  url: string;
  paths: string[];
  connections: number;
  duration?: number;
  amount?: number;
  accept?: string;
  headers?: Record<string, string>;
};
const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Job;
let i = 0;
// Wall time from the first request sent to the last answer read: autocannon's own duration counts
// whole seconds of its tick when a run stops at `amount` (160 answers in 0.2 s read as 1 s).
let firstSent = 0;
let lastAnswered = 0;
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration ?? 10,
  amount: job.amount,
  headers: { ...(job.headers ?? {}), ...(job.accept ? { accept: job.accept } : {}) },
  requests: [
    {
      setupRequest: (req) => {
        firstSent ||= performance.now();
        req.path = job.paths[i++ % job.paths.length]!;
        return req;
      },
      onResponse: () => {
        lastAnswered = performance.now();
      },
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    seconds: result.duration,
    wallSeconds: (lastAnswered - firstSent) / 1000,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }) + '\n',
);
