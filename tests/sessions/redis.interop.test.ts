/**
 * The session conformance suite on the Redis store, against a real redis-server (Debian's)
 * started here on a free loopback port, never mocked; and the store's behaviour when Redis
 * goes away and comes back.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BusyError } from '../../src/contract/run';
import { createRedisSessionStore, type RedisSessionStore } from '../../src/node/redis-sessions';
import { sampleSession, sessionConformance } from './conformance';
import { redisRaw, startRedis, type TestRedis } from './redis-server.fixture';

let redis: TestRedis;
const stores: RedisSessionStore[] = [];
beforeAll(async () => {
  redis = await startRedis(['--maxmemory-samples', '10']);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

/** One RESP command (an array of bulk strings). */
function resp(args: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) {
    const b = Buffer.isBuffer(a) ? a : Buffer.from(a);
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

let n = 0;
async function make(l: { ttlMs?: number; quotaBytes?: number; maxSessionBytes?: number } = {}) {
  if (l.quotaBytes) {
    await redisRaw(redis.port, 'FLUSHALL');
    const used = Number(/used_memory:(\d+)/.exec(await redisRaw(redis.port, 'INFO memory'))?.[1]);
    await redisRaw(redis.port, `CONFIG SET maxmemory ${used + l.quotaBytes}`);
    await redisRaw(redis.port, 'CONFIG SET maxmemory-policy volatile-ttl');
  } else await redisRaw(redis.port, 'CONFIG SET maxmemory 0');
  const s = createRedisSessionStore({ url: redis.url, keyPrefix: `conf${n++}:`, ttlMs: l.ttlMs, maxSessionBytes: l.maxSessionBytes });
  stores.push(s);
  await expect.poll(() => s.ping().then(() => true, () => false)).toBe(true);
  return s;
}

describe('Redis session store (redis-server)', () => {
  sessionConformance('redis', {
    make,
    evicts: 'oldest',
    async crashMidWrite(store, data) {
      // a client that opened a transaction and died before EXEC: half of the HSET is sent, then the socket is cut
      const prefix = `conf${n - 1}:`;
      const cmd = Buffer.concat([
        resp(['MULTI']),
        resp(['HSET', prefix + data.key, 'meta', JSON.stringify({ key: data.key, created: data.created, files: [], graphics: 0 }), 'f:data.bin', Buffer.from(data.files[0].bytes)]),
        resp(['EXEC']),
      ]);
      await new Promise<void>((resolve, reject) => {
        const sock = net.connect(redis.port, '127.0.0.1', () => {
          sock.write(cmd.subarray(0, Math.floor(cmd.length * 0.6)), () => {
            sock.destroy();
            resolve();
          });
        });
        sock.on('error', reject);
      });
      await redisRaw(redis.port, 'PING');
      expect(await store.get(data.key)).toBeUndefined();
    },
  });

  test('redis: Redis stopped -> reads and writes fail as BusyError (503); it recovers by itself when Redis is back', async () => {
    const s = await make();
    const d = sampleSession(1000);
    await s.put(d);
    await redis.stop();
    const e = await s.put(sampleSession(100)).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(BusyError);
    expect((e as BusyError).retryAfterS).toBeGreaterThan(0);
    await expect(s.get(d.key)).rejects.toBeInstanceOf(BusyError);
    await expect(s.ping()).rejects.toBeInstanceOf(BusyError);
    await redis.start();
    await expect.poll(() => s.ping().then(() => true, () => false), { timeout: 30_000 }).toBe(true);
    const d2 = sampleSession(100);
    await s.put(d2);
    expect((await s.get(d2.key))?.key).toBe(d2.key);
    expect(await s.get(d.key)).toBeUndefined(); // nothing is saved: a restarted Redis is empty
  });
});
