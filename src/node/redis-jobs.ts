/**
 * Job state records (src/contract/jobs.ts, {@link JobStateStore}) in Redis, shared by every
 * node that uses the same Redis as its session store (`SESSION_STORE=redis://...`): any node
 * answers `tmp/<key>/status`, and a `DELETE` sent to another node marks the job cancelled,
 * which the running node reads at its next progress update and stops. One key per job,
 * `indapi3:job:<key>`, JSON, expiring with the sessions (24 h by default). The connection
 * opens on the first job (src/node/redis-client.ts: failures are BusyErrors, 503).
 */
import type { JobStateStore, JobStatus } from '../contract/jobs';
import { openRedis, type RedisConnection } from './redis-client';

/** A {@link JobStateStore} in Redis, with its connection's shutdown. */
export interface RedisJobStateStore extends JobStateStore {
  /** Closes the connection, if one was opened. */
  close(): Promise<void>;
}

/**
 * Opens the store (lazily: no connection until the first job).
 * @param url `redis://host:port[/db]`
 * @param ttlMs lifetime of a record after its last write, ms (default 24 h)
 * @param log where connection losses are said
 */
export function createRedisJobStateStore(url: string, ttlMs = 24 * 3600_000, log?: (line: string) => void): RedisJobStateStore {
  let conn: RedisConnection | undefined;
  let opening: Promise<RedisConnection> | undefined;
  /** The connection, opened on first use and given up to 2 s to connect (then its commands fail as BusyErrors, 503). */
  const c = (): Promise<RedisConnection> => (opening ??= (async () => {
    const r = (conn = openRedis(url, log));
    for (let i = 0; i < 100 && !r.ready(); i++) await new Promise((res) => setTimeout(res, 20));
    return r;
  })());
  const k = (key: string) => `indapi3:job:${key}`;
  return {
    async get(key, signal) {
      const v = await (await c()).command<Buffer | null>(['GET', k(key)], signal);
      return v ? (JSON.parse(v.toString('utf8')) as JobStatus) : undefined;
    },
    async set(key, s, signal) {
      await (await c()).command(['SET', k(key), JSON.stringify(s), 'PX', String(Math.max(1, Math.floor(ttlMs)))], signal);
    },
    async close() {
      await conn?.close();
    },
  };
}
