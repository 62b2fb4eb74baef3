// Recognition passes on worker threads: one photo's passes run on several cores at once (the unsure
// tail of ~50 passes is what bounds p99), and the request thread only finds the card's outline and
// orchestrates. Each thread has its own OpenCV (~70 MB) and matches against the same index through
// shared memory (RecognitionIndex's arrays are SharedArrayBuffers), so the index is held once.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../sql/runtime/log.js';
import { errorFields } from '../../sql/runtime/log.js';
import type { RecognitionIndex, SharedIndexArrays } from './matcher.js';
import type { PassOutcome, PassTask } from './pass.js';

/** A photo's working raster in shared memory: sent to every thread without a copy. */
type SharedPhoto = { id: number; rgb: Uint8Array; width: number; height: number };

export type PassRequest =
  | { type: 'pass'; taskId: number; task: PassTask; photo: SharedPhoto; index: { id: number; arrays: SharedIndexArrays } }
  | { type: 'release'; photoId: number };
export type PassReply = { taskId: number; outcome: PassOutcome } | { taskId: number; error: string };

/** Runs one photo's passes; `wants` says whether another may start while `outstanding` are running. */
export interface PhotoPasses {
  run(task: PassTask): Promise<PassOutcome>;
  wants(outstanding: number): boolean;
  /** Drops this photo's passes that have not started (their promises reject with Cancelled). */
  cancel(): void;
  /** Frees the photo wherever it was sent. */
  release(): void;
}

export class Cancelled extends Error {}

type Job = { photoId: number; request: Extract<PassRequest, { type: 'pass' }>; resolve(o: PassOutcome): void; reject(e: Error): void };
type Thread = { worker: Worker; ready: boolean; started: Promise<void>; job: Job | null };

const MAX_START_FAILURES = 3;

export class RecognitionThreads {
  #threads: Thread[] = [];
  #queue: Job[] = [];
  #nextTask = 1;
  #nextPhoto = 1;
  #closed = false;
  /** Threads that failed before they were ready, in a row: past MAX_START_FAILURES none are started. */
  #startFailures = 0;
  /** Passes the threads have answered, since start. */
  passesRun = 0;
  readonly #indexIds = new WeakMap<RecognitionIndex, number>();
  #nextIndex = 1;

  /** `size` threads, started by warm() or the first photo (a process that recognises nothing starts none). */
  constructor(
    readonly size: number,
    private readonly log?: Logger,
  ) {}

  /** Whether passes can run here; else the caller runs them itself (no threads, or they cannot start). */
  get usable(): boolean {
    return this.size > 0 && !this.#closed && this.#startFailures < MAX_START_FAILURES;
  }

  /** Starts the threads now (each loads OpenCV, ~1 s here), so the first photo does not wait for them. */
  warm(): void {
    if (!this.usable) return;
    while (this.#threads.length < this.size) this.#threads.push(this.#spawn());
  }

  /** Starts the threads and waits until each has loaded OpenCV. */
  async started(): Promise<void> {
    this.warm();
    await Promise.all(this.#threads.map((t) => t.started));
  }

  /** A photo's passes on these threads. */
  photo(photo: { rgb: Uint8Array; width: number; height: number }, index: RecognitionIndex): PhotoPasses {
    this.warm();
    const rgb = new Uint8Array(new SharedArrayBuffer(photo.rgb.length));
    rgb.set(photo.rgb);
    const shared: SharedPhoto = { id: this.#nextPhoto++, rgb, width: photo.width, height: photo.height };
    let indexId = this.#indexIds.get(index);
    if (indexId === undefined) this.#indexIds.set(index, (indexId = this.#nextIndex++));
    const indexRef = { id: indexId, arrays: index.shared };
    return {
      run: (task) =>
        new Promise<PassOutcome>((resolve, reject) => {
          if (this.#closed) return reject(new Error('recognition threads closed'));
          const request = { type: 'pass' as const, taskId: this.#nextTask++, task, photo: shared, index: indexRef };
          this.#queue.push({ photoId: shared.id, request, resolve, reject });
          this.#dispatch();
        }),
      // One pass at a time is always wanted; more only while a thread would otherwise sit idle.
      wants: (outstanding) => outstanding === 0 || (this.#queue.length === 0 && this.#threads.some((t) => t.ready && !t.job)),
      cancel: () => {
        const dropped = this.#queue.filter((j) => j.photoId === shared.id);
        this.#queue = this.#queue.filter((j) => j.photoId !== shared.id);
        for (const job of dropped) job.reject(new Cancelled());
      },
      release: () => {
        for (const t of this.#threads) t.worker.postMessage({ type: 'release', photoId: shared.id } satisfies PassRequest);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('recognition threads closed'));
    await Promise.all(this.#threads.map((t) => t.worker.terminate()));
  }

  #spawn(): Thread {
    const worker = new Worker(new URL('./passWorker.js', import.meta.url));
    // The threads never keep the process alive on their own.
    worker.unref();
    let started = () => undefined as void;
    const thread: Thread = { worker, ready: false, job: null, started: new Promise((resolve) => (started = resolve)) };
    worker.on('message', (m: PassReply | { ready: true }) => {
      if ('ready' in m) {
        thread.ready = true;
        this.#startFailures = 0;
        started();
      } else {
        const job = thread.job;
        thread.job = null;
        if (job && job.request.taskId === m.taskId) {
          if ('outcome' in m) {
            this.passesRun++;
            job.resolve(m.outcome);
          } else job.reject(new Error(`recognition pass failed: ${m.error}`));
        }
      }
      this.#dispatch();
    });
    const replace = (error: Error) => {
      started();
      const i = this.#threads.indexOf(thread);
      if (i < 0) return;
      thread.job?.reject(error);
      thread.job = null;
      if (!thread.ready) this.#startFailures++;
      if (this.usable) {
        this.log?.error('recognition thread stopped; starting another', errorFields(error));
        this.#threads[i] = this.#spawn();
        return;
      }
      this.#threads.splice(i, 1);
      if (!this.#closed) {
        this.log?.error('recognition threads cannot start; passes run on the request thread', errorFields(error));
        for (const job of this.#queue.splice(0)) job.reject(error);
      }
    };
    worker.on('error', replace);
    worker.on('exit', (code) => {
      if (!this.#closed) replace(new Error(`recognition thread exited with code ${code}`));
    });
    return thread;
  }

  #dispatch(): void {
    for (const thread of this.#threads) {
      if (!this.#queue.length) return;
      if (!thread.ready || thread.job) continue;
      thread.job = this.#queue.shift()!;
      thread.worker.postMessage(thread.job.request);
    }
  }
}
