/**
 * Asynchronous calls ("jobs"): a call sent with `Prefer: respond-async` (RFC 7240 §4.1) is
 * accepted at once (202) and runs in the background; its state is read at
 * `tmp/<key>/status` and it is cancelled with `DELETE tmp/<key>/`. When it is done its
 * session is an ordinary session (the same key). The handler of the Node server and the
 * service worker's handler both use this one implementation. Uses no Node built-in.
 *
 * Where the state lives:
 * - the work itself, its AbortController and its live progress are held by the node that
 *   accepted the call ({@link JobQueue}); the cap on running and queued jobs is per node;
 * - the state record ({@link JobStatus}) is written through a small {@link JobStateStore}
 *   (in memory by default: per node, gone on restart; the Node server keeps them in Redis
 *   with a Redis session store, src/node/redis-jobs.ts): then any node answers `status`, and a `DELETE` sent to
 *   another node marks the job cancelled in the store, which the running node reads at its
 *   next progress update and stops.
 * - a finished job's session lives in the session store, so `status` of a key with a
 *   session and no job record answers `done` on every node.
 */

/** States of a job: queued (waiting for a slot), running, then one of done, failed, cancelled. */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** What `GET tmp/<key>/status` answers (JSON). */
export interface JobStatus {
  /** The job's state. */
  state: JobState;
  /** Share of the work done, 0..1 (1 when done). */
  progress: number;
  /** A human-readable line; for a failed job the error answer's text (the 400 message and the call). */
  message: string;
  /** HTTP status the synchronous call would have answered, for a failed job (e.g. 400). */
  status?: number;
}

/** True for the states a job never leaves. */
export function isFinal(s: JobState): boolean {
  return s === 'done' || s === 'failed' || s === 'cancelled';
}

/**
 * Where job state records are kept (keyed by the session key). Async so that a store
 * shared by several nodes (Redis) fits; the in-memory one is per node.
 */
export interface JobStateStore {
  /** The record of a job, undefined when unknown (or expired). */
  get(key: string, signal?: AbortSignal): Promise<JobStatus | undefined>;
  /** Writes the record of a job. */
  set(key: string, status: JobStatus, signal?: AbortSignal): Promise<void>;
}

/**
 * A {@link JobStateStore} in memory: records expire `ttlMs` after their last write (default
 * 24 h, the sessions' lifetime); at most `max` records (default 10 000, oldest go first).
 */
export function createMemoryJobStateStore(opts: { ttlMs?: number; max?: number } = {}): JobStateStore {
  const ttl = opts.ttlMs ?? 24 * 60 * 60 * 1000;
  const max = opts.max ?? 10_000;
  const map = new Map<string, { s: JobStatus; t: number }>();
  return {
    async get(key) {
      const r = map.get(key);
      if (!r) return undefined;
      if (Date.now() - r.t > ttl) {
        map.delete(key);
        return undefined;
      }
      return { ...r.s };
    },
    async set(key, s) {
      map.delete(key);
      map.set(key, { s: { ...s }, t: Date.now() });
      while (map.size > max) map.delete(map.keys().next().value as string);
    },
  };
}

/** Options of {@link createJobQueue}. */
export interface JobQueueOptions {
  /** Jobs running at once on this node (default 2). */
  concurrency?: number;
  /** Most jobs running or queued on this node (default 16); past it a call answers 503 with `Retry-After`. */
  maxJobs?: number;
  /** Seconds sent in `Retry-After` when full (default 10). */
  retryAfterS?: number;
  /** Longest a job may run, ms (default 3 600 000, one hour); then it fails. */
  timeoutMs?: number;
  /** Where state records are kept (default {@link createMemoryJobStateStore}). */
  store?: JobStateStore;
}

/** Reports progress: `done` of `total` in any unit (features, layers, cells). */
export type ProgressFn = (done: number, total: number) => void;

/** The work of a job: resolves when its session is stored; throws to fail. */
export type JobWork = (signal: AbortSignal, onProgress: ProgressFn) => Promise<void>;

/** How a thrown error becomes a failed job's record (message and status of the synchronous answer). */
export type JobFailure = (e: unknown, timedOut: boolean) => Promise<{ status: number; message: string }>;

/** The jobs of one node. */
export interface JobQueue {
  /**
   * Accepts a job under `key`: queued, then run when a slot is free. `undo` removes what the
   * work kept when a cancel came as it finished (its session).
   * @returns false when the node already holds `maxJobs` jobs (answer 503, `retryAfterS`)
   */
  submit(key: string, work: JobWork, fail: JobFailure, undo?: () => Promise<void>): Promise<boolean>;
  /** The job's record: this node's live one, else the store's; undefined when unknown. */
  status(key: string, signal?: AbortSignal): Promise<JobStatus | undefined>;
  /**
   * Cancels a queued or running job (its signal aborts; no session is kept).
   * @returns the record after the cancel, undefined when the job is unknown
   */
  cancel(key: string, signal?: AbortSignal): Promise<JobStatus | undefined>;
  /** Jobs running or queued on this node. */
  size(): number;
  /** Seconds a refused client should wait. */
  readonly retryAfterS: number;
  /** Longest a job may run, ms. */
  readonly timeoutMs: number;
}

interface LiveJob {
  status: JobStatus;
  controller: AbortController;
  work: JobWork;
  fail: JobFailure;
  undo?: () => Promise<void>;
  /** Last progress written to the store (0..1) and when (ms). */
  written: { p: number; t: number };
}

/** Creates the job queue of one node. */
export function createJobQueue(o: JobQueueOptions = {}): JobQueue {
  const concurrency = Math.max(1, o.concurrency ?? 2);
  const maxJobs = Math.max(1, o.maxJobs ?? 16);
  const timeoutMs = o.timeoutMs ?? 3_600_000;
  const store = o.store ?? createMemoryJobStateStore();
  const live = new Map<string, LiveJob>();
  const waiting: string[] = [];
  let running = 0;

  const write = (key: string, j: LiveJob) => store.set(key, j.status).catch(() => undefined);

  /** Progress: kept live at once, written to the store at most every 1 % or 500 ms (and a cancel seen there stops the job). */
  const progressOf = (key: string, j: LiveJob): ProgressFn => (done, total) => {
    if (j.controller.signal.aborted || !(total > 0)) return;
    const p = Math.min(1, Math.max(j.status.progress, done / total));
    j.status.progress = p;
    const now = Date.now();
    if (p - j.written.p < 0.01 && now - j.written.t < 500) return;
    j.written = { p, t: now };
    void store.get(key).then((s) => {
      if (s?.state === 'cancelled') stop(key, j);
      else if (!j.controller.signal.aborted && !isFinal(j.status.state)) return write(key, j);
    }, () => undefined);
  };

  function stop(key: string, j: LiveJob): void {
    if (isFinal(j.status.state)) return;
    j.status = { state: 'cancelled', progress: j.status.progress, message: 'Cancelled by the client; no session was kept.' };
    j.controller.abort();
    const i = waiting.indexOf(key);
    if (i >= 0) {
      waiting.splice(i, 1); // never started: nothing to wait for
      live.delete(key);
    }
    void write(key, j);
  }

  async function runOne(key: string, j: LiveJob): Promise<void> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([j.controller.signal, timeout]);
    j.status = { state: 'running', progress: 0, message: 'Running.' };
    await write(key, j);
    try {
      await j.work(signal, progressOf(key, j));
      if (j.controller.signal.aborted) { // cancelled as it finished: nothing is kept
        await j.undo?.().catch(() => undefined);
        return;
      }
      j.status = { state: 'done', progress: 1, message: 'Done: the session is ready.' };
    } catch (e) {
      if (j.controller.signal.aborted) return;
      const f = await j.fail(e, timeout.aborted);
      j.status = { state: 'failed', progress: j.status.progress, message: f.message, status: f.status };
    }
    await write(key, j);
  }

  function pump(): void {
    while (running < concurrency && waiting.length) {
      const key = waiting.shift()!;
      const j = live.get(key);
      if (!j || j.controller.signal.aborted) continue;
      running++;
      void runOne(key, j).finally(() => {
        running--;
        live.delete(key);
        pump();
      });
    }
  }

  return {
    retryAfterS: o.retryAfterS ?? 10,
    timeoutMs,
    size: () => live.size,
    async submit(key, work, fail, undo) {
      if (live.size >= maxJobs) return false;
      const j: LiveJob = { status: { state: 'queued', progress: 0, message: 'Queued: waiting for a free slot.' }, controller: new AbortController(), work, fail, undo, written: { p: 0, t: Date.now() } };
      live.set(key, j);
      waiting.push(key);
      await write(key, j);
      pump();
      return true;
    },
    async status(key, signal) {
      const j = live.get(key);
      if (j) return { ...j.status };
      return store.get(key, signal);
    },
    async cancel(key, signal) {
      const j = live.get(key);
      if (j) {
        stop(key, j);
        return { ...j.status };
      }
      // a job of another node (shared store): mark it; its node stops at its next progress update
      const s = await store.get(key, signal);
      if (!s || isFinal(s.state)) return s;
      const c: JobStatus = { state: 'cancelled', progress: s.progress, message: 'Cancelled by the client; no session was kept.' };
      await store.set(key, c, signal);
      return c;
    },
  };
}

/**
 * True when the request asks for an asynchronous answer: a `Prefer` header (RFC 7240 §2)
 * with the preference `respond-async` (any case, among other comma-separated preferences,
 * parameters after `;` ignored).
 */
export function prefersAsync(prefer: string | null | undefined): boolean {
  if (!prefer) return false;
  return prefer.split(',').some((p) => p.split(';')[0].split('=')[0].trim().toLowerCase() === 'respond-async');
}
