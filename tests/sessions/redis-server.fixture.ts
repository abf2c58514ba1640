/**
 * Test fixture: a real `redis-server` (Debian's) started with explicit arguments on a free
 * loopback port, nothing saved (`--save '' --appendonly no`), in its own temporary folder;
 * stopped (SIGTERM, then SIGKILL) and started again on the same port by the tests that need
 * Redis to go away and come back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A free TCP port on 127.0.0.1 (asked of the kernel). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Sends one inline command to Redis and resolves with the raw reply text. */
export function redisRaw(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let out = '';
    sock.on('data', (d) => {
      out += d.toString('latin1');
      if (out.endsWith('\r\n')) sock.end();
    });
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
    sock.write(command + '\r\n');
  });
}

/** A running redis-server. */
export interface TestRedis {
  port: number;
  url: string;
  /** Stops the server (its data is gone: nothing is saved). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty). */
  start(): Promise<void>;
}

/** Starts redis-server on a free loopback port and waits until it answers PING. */
export async function startRedis(extraArgs: string[] = []): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-redis-'));
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning', ...extraArgs], { stdio: 'ignore' });
    const until = Date.now() + 20_000;
    for (;;) {
      try {
        if ((await redisRaw(port, 'PING')).startsWith('+PONG')) return;
      } catch { /* not yet listening */ }
      if (Date.now() > until) throw new Error(`redis-server did not answer on ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const p = proc;
    proc = undefined;
    if (!p || p.exitCode !== null) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    const t = setTimeout(() => p.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(t);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      await stop();
    },
  };
}

/** Stops `r` and removes nothing else (its folder is in the system's temporary folder). */
export async function stopRedis(r: TestRedis | undefined): Promise<void> {
  await r?.stop();
}

