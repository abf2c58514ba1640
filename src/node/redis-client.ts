/**
 * One connection to a Redis server (node-redis, the `redis` package) for the session store
 * and the shared result cache: replies as Buffers, commands refused at once while the
 * connection is down (`disableOfflineQueue`) instead of queued, reconnection forever
 * (every 0.1 s growing to 2 s), and every failure (refused, closed, timed out after
 * {@link REDIS_COMMAND_TIMEOUT_MS}, an error reply such as `OOM` past `maxmemory`) turned into
 * a {@link BusyError}, which the contract answers 503 with `Retry-After`. The node recovers
 * by itself when Redis comes back: the next command after the reconnection succeeds.
 */
import { createClient, RESP_TYPES } from 'redis';
import { BusyError } from '../contract/run';

/** Longest a command may take before it counts as a failure: 5 s. */
export const REDIS_COMMAND_TIMEOUT_MS = 5000;

/** Seconds a caller is told to wait when Redis cannot be reached (`Retry-After`). */
export const REDIS_RETRY_AFTER_S = 5;

/** A Redis command's arguments. */
export type RedisArgs = ReadonlyArray<string | Buffer>;

/** A connection as the stores use it. */
export interface RedisConnection {
  /** Sends one command; Buffers for blob replies. @throws BusyError when Redis is unreachable or refuses */
  command<T = unknown>(args: RedisArgs, signal?: AbortSignal): Promise<T>;
  /** Sends commands in one MULTI/EXEC transaction: all applied or none. @throws BusyError as {@link command} */
  transaction(commands: RedisArgs[], signal?: AbortSignal): Promise<unknown[]>;
  /** True while connected. */
  ready(): boolean;
  /** Closes the connection. */
  close(): Promise<void>;
}

/** True for a `redis://` or `rediss://` URL (`SESSION_STORE`, `RESULT_CACHE_URL`). */
export function isRedisUrl(s: string | undefined): s is string {
  return !!s && /^rediss?:\/\//i.test(s);
}

/**
 * Opens a connection to `url` (`redis://host:port[/db]`); it connects in the background and
 * again after every loss, so a server starts and answers 503 while Redis is away.
 * @param url redis:// URL
 * @param log where connection losses and recoveries are said (once each)
 */
export function openRedis(url: string, log?: (line: string) => void): RedisConnection {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: REDIS_COMMAND_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(100 * (retries + 1), 2000) },
  }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const where = url.replace(/\/\/[^@/]*@/, '//');
  let down = false;
  client.on('error', (e: Error) => {
    if (!down) log?.(`redis ${where}: ${e.message}; calls that need it answer 503 until it is back`);
    down = true;
  });
  client.on('ready', () => {
    if (down) log?.(`redis ${where}: connected again`);
    down = false;
  });
  let closed = false;
  const connecting = client.connect().catch(() => undefined);
  const unavailable = () => new BusyError(REDIS_RETRY_AFTER_S, `The shared store (Redis) cannot be reached. Try again in ${REDIS_RETRY_AFTER_S} seconds.`);

  async function guarded<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (!client.isReady) throw unavailable();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(unavailable()), REDIS_COMMAND_TIMEOUT_MS);
    });
    try {
      signal?.throwIfAborted();
      return await Promise.race([run(), timeout]);
    } catch (e) {
      if (e instanceof BusyError || (e as Error)?.name === 'AbortError') throw e;
      throw unavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    command: <T>(args: RedisArgs, signal?: AbortSignal) => guarded(() => client.sendCommand(args) as Promise<T>, signal),
    transaction(commands, signal) {
      return guarded(async () => {
        const m = client.multi();
        for (const c of commands) m.addCommand([...c]);
        return (await m.exec()) as unknown[];
      }, signal);
    },
    ready: () => client.isReady,
    async close() {
      if (closed) return;
      closed = true;
      await connecting;
      await (client.isOpen ? client.close() : Promise.resolve()).catch(() => client.destroy());
    },
  };
}
