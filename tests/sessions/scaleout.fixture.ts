/**
 * Test and bench fixture: several server nodes (`tsx src/node/server.ts`, each its own
 * process, port and empty `SESSION_DIR`) behind a real haproxy (Debian's) started with a
 * generated haproxy.cfg (health checks on `/healthz`, `retries`, `option redispatch`, L7
 * retries of requests that fit its buffer), and a mixed client load that records every
 * answer. Loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { freePort } from './redis-server.fixture';

export const BUNDLE = path.resolve('tests/engine/fixtures/bundle');

/** One server node. */
export interface Node {
  port: number;
  url: string;
  proc: ChildProcess;
}

/** Starts a node and waits until `/healthz` answers 200. */
export async function startNode(env: Record<string, string>, root: string, i: number): Promise<Node> {
  const port = await freePort();
  const dir = path.join(root, `node${i}`);
  mkdirSync(dir, { recursive: true });
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/node/server.ts'], {
    cwd: path.resolve('.'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: BUNDLE, DIST_DIR: dir, SESSION_DIR: path.join(dir, 'sessions'), LOG: '0', POOL_THREADS: '1', MAX_CONNECTIONS_PER_CLIENT: '0', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`node ${i} exited (${proc.exitCode})`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.status === 200, () => false);
    if (ok) return { port, url, proc };
    if (Date.now() > until) throw new Error(`node ${i} did not become healthy`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Kills a node at once (SIGKILL) and waits for it to be gone. */
export async function killNode(n: Node): Promise<void> {
  if (n.proc.exitCode !== null || n.proc.signalCode) return;
  const gone = new Promise((r) => n.proc.once('exit', r));
  n.proc.kill('SIGKILL');
  await gone;
}

/** haproxy in front of `nodes`; resolves with its URL and process. */
export async function startHaproxy(nodes: Node[], root: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const err503 = path.join(root, '503.http');
  // haproxy's own failures (a node killed under a request it cannot replay) answer 503 with Retry-After
  writeFileSync(err503, 'HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 1\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\nNo server could answer. Try again.\n');
  const cfg = [
    'global',
    '  maxconn 2000',
    '  tune.bufsize 65536', // requests up to 64 KiB (the 40 KB classify bodies) stay buffered, so they can be retried
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    `  errorfile 502 ${err503}`,
    `  errorfile 503 ${err503}`,
    `  errorfile 504 ${err503}`,
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  option http-buffer-request',
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  timeout check 3s',
    '  default-server inter 300ms fall 2 rise 2',
    '  http-response set-header X-Node %s',
    ...nodes.map((n, i) => `  server n${i} 127.0.0.1:${n.port} check`),
    '',
  ].join('\n');
  const file = path.join(root, 'haproxy.cfg');
  writeFileSync(file, cfg);
  const proc = spawn('haproxy', ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'ignore'] });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`haproxy exited (${proc.exitCode})`);
    // every node is up in haproxy's eyes (each answers a health request through it)
    const seen = new Set<string>();
    for (let i = 0; i < nodes.length * 4; i++) {
      const r = await fetch(`${url}/healthz`).catch(() => undefined);
      if (r?.status === 200) seen.add(r.headers.get('x-node') ?? '');
    }
    if (seen.size === nodes.length) return { url, proc };
    if (Date.now() > until) throw new Error(`haproxy did not send to every node (${[...seen].join(', ')})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A session made during the load and what was first read of it. */
export interface MadeSession {
  key: string;
  /** The haproxy server name of the node that made it (n0, n1...). */
  node: string;
  /** sha256 of each sub-resource first read (path under /ocpu/tmp/<key>/ -> hex). */
  seen: Map<string, string>;
  /** Sub-resources to read: `R/.val/json`, `files/<name>`, `zip`... */
  parts: string[];
}

/** Figures of a load run. */
export interface LoadFigures {
  calls: number;
  sessions: MadeSession[];
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Requests that failed with no answer (connection errors). */
  noAnswer: number;
  /** Answers cut in the middle of their body (the node was killed while sending it: no balancer can replay that). */
  cut: number;
}

const sha = (b: ArrayBuffer) => createHash('sha256').update(new Uint8Array(b)).digest('hex');

/** A classify body of about 40 KB: 160 small polygons inside the fixture's Kenya. */
export function classifyBody(): string {
  const domains: Record<string, string> = {};
  for (let i = 0; i < 160; i++) {
    const x = 32 + (i % 16) * 0.17;
    const y = 0.2 + Math.floor(i / 16) * 0.17;
    const ring = [[x, y], [x + 0.15, y], [x + 0.15, y + 0.1], [x + 0.075, y + 0.15], [x, y + 0.1], [x, y]];
    domains[`zone_${String(i).padStart(3, '0')}_${'x'.repeat(40)}`] = `POLYGON((${ring.map(([a, b]) => `${a.toFixed(9)} ${b.toFixed(9)}`).join(', ')}))`;
  }
  return JSON.stringify({ var: ['ELEVATION', 'SLOPE'], domains });
}

/**
 * Runs a mixed load against `base` for `durationMs` with `workers` concurrent clients:
 * queries, file formats, classify with a 40 KB body, and reads (listing, value, files,
 * zip) of earlier sessions, the first read of each part remembered. `onTick(elapsedMs)`
 * is called every 100 ms (the kills).
 */
export async function runLoad(base: string, durationMs: number, workers: number, onTick: (elapsedMs: number) => Promise<void> | void = () => {}): Promise<LoadFigures> {
  const fig: LoadFigures = { calls: 0, sessions: [], statuses: {}, noAnswer: 0, cut: 0 };
  const t0 = Date.now();
  const big = classifyBody();
  const count = (s: number | string) => (fig.statuses[s] = (fig.statuses[s] ?? 0) + 1);
  const req = async (p: string, init?: RequestInit): Promise<Response | undefined> => {
    fig.calls++;
    try {
      const r = await fetch(base + p, init);
      count(r.status);
      return r;
    } catch {
      fig.noAnswer++;
      return undefined;
    }
  };
  const json = { 'Content-Type': 'application/json' };
  const makers = [
    () => req('/ocpu/library/indapi3/R/indapi', { method: 'POST', headers: json, body: JSON.stringify({ var: ['ELEVATION', 'SLOPE'], iso3: 'KEN', by: 'ADM1_NAME_ALT' }) }),
    () => req('/ocpu/library/indapi3/R/indapi', { method: 'POST', headers: json, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', by: 'ADM1_NAME_ALT', format: 'csv' }) }),
    () => req('/ocpu/library/indapi3/R/classify', { method: 'POST', headers: json, body: big }),
    () => req('/ocpu/library/indapi3/R/describe', { method: 'POST', headers: json, body: JSON.stringify({ var: 'ELEVATION' }) }),
  ];
  let tick = Promise.resolve();
  const ticker = setInterval(() => (tick = tick.then(() => onTick(Date.now() - t0))), 100);
  let i = 0;
  const worker = async (w: number) => {
    while (Date.now() - t0 < durationMs) {
      const n = i++;
      const s = fig.sessions.length && n % 3 !== 0 ? fig.sessions[(n * 7919 + w) % fig.sessions.length] : undefined;
      if (s) {
        const part = s.parts[n % s.parts.length];
        const r = await req(`/ocpu/tmp/${s.key}/${part}`);
        const b = await r?.arrayBuffer().catch(() => {
          fig.cut++;
          return undefined;
        });
        if (r?.status === 200 && b && !s.seen.has(part)) s.seen.set(part, sha(b));
        continue;
      }
      const r = await makers[n % makers.length]();
      if (r?.status !== 201) {
        await r?.arrayBuffer().catch(() => undefined);
        continue;
      }
      const key = r.headers.get('x-ocpu-session')!;
      const body = await r.text().catch(() => {
        fig.cut++;
        return '';
      });
      const files = body.split('\n').filter((l) => l.startsWith(`/ocpu/tmp/${key}/files/`)).map((l) => l.slice(`/ocpu/tmp/${key}/`.length));
      fig.sessions.push({ key, node: r.headers.get('x-node') ?? '?', seen: new Map(), parts: ['', 'R/.val/json', 'R/.val/print', 'info', ...files, ...(files.length ? ['zip'] : [])] });
    }
  };
  await Promise.all(Array.from({ length: workers }, (_x, w) => worker(w)));
  clearInterval(ticker);
  await tick;
  return fig;
}

/** Reads every part of every session from `base`; returns the parts missing or different from what was first read. */
export async function verifySessions(base: string, sessions: MadeSession[]): Promise<{ checked: number; missing: string[]; differ: string[]; hashes: Map<string, string> }> {
  const missing: string[] = [];
  const differ: string[] = [];
  const hashes = new Map<string, string>();
  const jobs = sessions.flatMap((s) => s.parts.map((part) => ({ s, part })));
  let next = 0;
  const one = async () => {
    for (let j = next++; j < jobs.length; j = next++) {
      const { s, part } = jobs[j];
      const r = await fetch(`${base}/ocpu/tmp/${s.key}/${part}`).catch(() => undefined);
      const b = await r?.arrayBuffer().catch(() => undefined);
      if (r?.status !== 200 || !b) {
        missing.push(`${s.key}/${part} ${r?.status ?? 'no answer'}`);
        continue;
      }
      const h = sha(b);
      hashes.set(`${s.key}/${part}`, h);
      const first = s.seen.get(part);
      if (first && first !== h) differ.push(`${s.key}/${part}`);
    }
  };
  await Promise.all(Array.from({ length: 12 }, one));
  const checked = jobs.length;
  return { checked, missing, differ, hashes };
}

/** A temporary root folder for nodes and haproxy. */
export const scaleoutRoot = () => mkdtempSync(path.join(os.tmpdir(), 'indapi3-scaleout-'));
