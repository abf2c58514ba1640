/**
 * Sessions in Redis, shared by every server node (`SESSION_STORE=redis://host:port[/db]`).
 *
 * One session is one hash, `indapi3:s:<key>`, with the fields `meta` (the {@link SessionMeta}
 * as JSON, without `zipBytes`), `value` (R/.val as JSON), `print`, `f:<name>` (each file's
 * bytes), `g:<n>:svg`, `g:<n>:png` and `zip` (the files' archive). It is written in one
 * MULTI/EXEC with its expiry (`PEXPIREAT` at creation + lifetime, `SESSION_TTL_HOURS`), so a
 * reader on any node sees all of it or nothing, and a writer killed mid-write leaves nothing
 * (Redis discards a transaction whose EXEC never came). The ZIP is kept once, by the first
 * node that builds it (`HSETNX` in a script that checks the session still exists); later
 * reads on every node serve those bytes.
 *
 * Quota: Redis' own memory limit, `maxmemory` with `maxmemory-policy volatile-ttl`, set on
 * the Redis server (see README "Run on several machines"): the sessions closest to their
 * expiry, i.e. the oldest, go first, and keys without a TTL (anything else in that Redis)
 * are never evicted. Not an LRU policy: Redis' LRU clock counts whole seconds, so under load
 * it cannot tell the sessions of one burst apart, while every session's expiry differs. The one-session
 * cap and the lifetime come from {@link withSessionLifecycle}. When Redis cannot be reached
 * or refuses a write (`OOM` under `noeviction`), calls answer 503 with `Retry-After`.
 */
import { isSessionKey, metaOf, withSessionLifecycle, type ManagedSessionStore, type SessionMeta, type SessionStore } from '../contract/sessions';
import { openRedis, type RedisArgs, type RedisConnection } from './redis-client';

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionOptions {
  /** `redis://host:port[/db]`, or an open connection. */
  url: string | RedisConnection;
  /** Lifetime, ms (default 24 h). */
  ttlMs?: number;
  /** Bytes one session may take (default 256 MiB; `SESSION_MAX_MB`). */
  maxSessionBytes?: number;
  /** Prefix of the keys (default "indapi3:s:"). */
  keyPrefix?: string;
  /** Where connection losses are said. */
  log?: (line: string) => void;
}

/** A session store in Redis, with its connection. */
export interface RedisSessionStore extends ManagedSessionStore {
  /** Closes the connection (when the store opened it). */
  close(): Promise<void>;
}

/** Keeps the ZIP only when the session still exists and has none (KEYS[1] the hash, ARGV[1] the bytes). */
const PUT_ZIP = "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSETNX', KEYS[1], 'zip', ARGV[1]) end return 0";

const text = (b: unknown): string | undefined => (b == null ? undefined : Buffer.isBuffer(b) ? b.toString('utf8') : String(b));
const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** Creates the Redis session store under {@link withSessionLifecycle} (quota: Redis' `maxmemory`). */
export function createRedisSessionStore(o: RedisSessionOptions): RedisSessionStore {
  const conn = typeof o.url === 'string' ? openRedis(o.url, o.log) : o.url;
  const prefix = o.keyPrefix ?? 'indapi3:s:';
  const ttlMs = o.ttlMs ?? 24 * 3600_000;
  const k = (key: string) => prefix + key;
  const field = async (key: string, name: string, signal?: AbortSignal) => conn.command<Buffer | null>(['HGET', k(key), name], signal);

  const inner: SessionStore = {
    async put(data, signal) {
      const fields: Array<string | Buffer> = ['meta', JSON.stringify({ ...metaOf(data), zipBytes: undefined }), 'value', JSON.stringify(data.value ?? null), 'print', data.print];
      for (const f of data.files) fields.push(`f:${f.name}`, Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength));
      data.graphics.forEach((g, i) => fields.push(`g:${i + 1}:svg`, g.svg, `g:${i + 1}:png`, Buffer.from(g.png.buffer, g.png.byteOffset, g.png.byteLength)));
      if (data.zip) fields.push('zip', Buffer.from(data.zip.buffer, data.zip.byteOffset, data.zip.byteLength));
      const cmds: RedisArgs[] = [
        ['HSET', k(data.key), ...fields],
        ['PEXPIREAT', k(data.key), String(Date.parse(data.created) + ttlMs)],
      ];
      await conn.transaction(cmds, signal);
    },
    async get(key, signal) {
      if (!isSessionKey(key)) return undefined;
      const [m, zipLen] = await Promise.all([field(key, 'meta', signal), conn.command<number>(['HSTRLEN', k(key), 'zip'], signal)]);
      const t = text(m);
      if (t === undefined) return undefined;
      const meta = JSON.parse(t) as SessionMeta;
      if (zipLen > 0) meta.zipBytes = zipLen;
      return meta;
    },
    async readValue(key, signal) {
      const t = text(await field(key, 'value', signal));
      return t === undefined ? undefined : { value: JSON.parse(t) as unknown };
    },
    readPrint: async (key, signal) => text(await field(key, 'print', signal)),
    async readZip(key, signal) {
      const b = await field(key, 'zip', signal);
      return b ? bytes(b) : undefined;
    },
    async putZip(key, zip, signal) {
      await conn.command(['EVAL', PUT_ZIP, '1', k(key), Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength)], signal);
    },
    async readFile(key, name, signal) {
      const [m, b] = await Promise.all([inner.get(key, signal), field(key, `f:${name}`, signal)]);
      const info = m?.files.find((f) => f.name === name);
      return info && b ? { name, mediaType: info.mediaType, bytes: bytes(b) } : undefined;
    },
    async readGraphic(key, index, signal) {
      if (!Number.isInteger(index) || index < 1) return undefined;
      const [svg, png] = await conn.command<Array<Buffer | null>>(['HMGET', k(key), `g:${index}:svg`, `g:${index}:png`], signal);
      return svg && png ? { svg: svg.toString('utf8'), png: bytes(png) } : undefined;
    },
    async list(signal) {
      const out: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await conn.command<[Buffer, Buffer[]]>(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000'], signal);
        cursor = next.toString();
        for (const key of keys) out.push(key.toString().slice(prefix.length));
      } while (cursor !== '0');
      return out.filter(isSessionKey);
    },
    async delete(key, signal) {
      await conn.command(['DEL', k(key)], signal);
    },
    // Redis deletes a session when its expiry passes: nothing to walk
    cleanup: async () => 0,
    async ping(signal) {
      await conn.command(['PING'], signal);
    },
  };
  const managed = withSessionLifecycle(inner, { ttlMs, quotaBytes: 'store', maxSessionBytes: o.maxSessionBytes });
  return Object.assign(managed, { close: () => (typeof o.url === 'string' ? conn.close() : Promise.resolve()) });
}
