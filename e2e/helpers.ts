/** Starts the Node server (`node --import tsx src/node/server.ts`) on a free port for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A running server. */
export interface Started { url: string; port: number; proc: ChildProcess; stop(): Promise<void> }

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as any).port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

/** Starts the server and waits until it answers. Requires `npm run build` first. `cwd`: another checkout's server and build (benchmarks against an older version). */
export async function startServer(env: Record<string, string> = {}, cwd?: string): Promise<Started> {
  const port = await freePort();
  // One node process with tsx's loader, as `npx tsx` runs it, without npx and the tsx CLI's parent
  // process: about 1 CPU-s less per start, and the e2e tier starts some 70 servers.
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/node/server.ts'], { cwd, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}/`;
  const t0 = Date.now();
  for (;;) {
    try { const r = await fetch(url); if (r.ok) break; } catch { /* not up yet */ }
    if (Date.now() - t0 > 60_000) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // signal the whole process group (detached above): the server's own children (pool workers) go with it.
  const kill = () => { try { process.kill(-proc.pid!, 'SIGTERM'); } catch { proc.kill('SIGTERM'); } };
  return { url, port, proc, stop: () => new Promise<void>((res) => { if (proc.exitCode !== null) return res(); proc.once('exit', () => res()); kill(); }) };
}

/**
 * Loads axe-core into the page once. Evaluated over the DevTools protocol rather than added as
 * a <script>: the app's Content-Security-Policy (src/node/hardening.ts) rightly blocks inline
 * scripts, and a test must not weaken it.
 */
export async function injectAxe(page: import('playwright-core').Page): Promise<void> {
  if (await page.evaluate(() => !!(window as any).axe)) return;
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const src = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(src);
}

/**
 * Serious and critical axe-core violations on the page (or within `selector`), one line
 * each: rule, impact, and up to four nodes (selector, start of the HTML, axe's summary).
 */
export async function axeViolations(page: import('playwright-core').Page, selector?: string): Promise<string[]> {
  await injectAxe(page);
  const r = await page.evaluate(async (sel) => (window as any).axe.run(sel ?? document, { resultTypes: ['violations'] }), selector);
  return (r.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[]; html?: string; failureSummary?: string }> }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} ${n.html?.slice(0, 160) ?? ''} ${n.failureSummary ?? ''}`).join(', ')}`);
}
