/**
 * First-load transfer with the service worker (run after a build:
 * `DIST_DIR=dist npx tsx bench/sw.ts`; `DATA_DIR=...` for another bundle): Chromium opens
 * the app on `#v=ELEVATION` with an empty profile, the map renders, the service worker
 * installs and does its background downloads; the bench waits until the server has seen no
 * request for 5 s and sums the bytes the Node server sent (Content-Length of each answer,
 * 304s count 0), by kind: app shell, small bundle files, COGs, other. Prints one JSON object.
 *
 * The bytes are measured at the server, so they include what the service worker fetches
 * in the background (the whole bundle with the former precache; the small files only now).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../e2e/helpers';
import { launch } from '../e2e/app-helpers';

/** Sums of bytes sent by kind. */
export interface Transfer { total: number; requests: number; shell: number; dataSmall: number; cog: number; cogFiles: number; other: number }

/** Parses the server's request log lines (`<iso> GET /path 200 1234 1.2ms`) into sums. */
export function sumLog(lines: string[]): Transfer {
  const t: Transfer = { total: 0, requests: 0, shell: 0, dataSmall: 0, cog: 0, cogFiles: 0, other: 0 };
  const cogs = new Set<string>();
  for (const l of lines) {
    const m = /^\S+ (GET|HEAD) (\S+) (\d{3}) (\d+|-) /.exec(l);
    if (!m) continue;
    const [, , url, , len] = m;
    const n = len === '-' ? 0 : Number(len);
    const p = url.split('?')[0];
    t.requests++;
    t.total += n;
    if (p.startsWith('/data/cog/')) { t.cog += n; cogs.add(p); }
    else if (p.startsWith('/data/')) t.dataSmall += n;
    else if (p.startsWith('/ocpu')) t.other += n;
    else t.shell += n;
  }
  t.cogFiles = cogs.size;
  return t;
}

async function main() {
  const env: Record<string, string> = {};
  if (process.env.DATA_DIR) env.DATA_DIR = process.env.DATA_DIR;
  const srv = await startServer(env);
  const lines: string[] = [];
  let last = Date.now();
  let buf = '';
  srv.proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const l of parts) if (/ (GET|HEAD) /.test(l)) { lines.push(l); last = Date.now(); }
  });
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    lines.length = 0;
    const t0 = Date.now();
    await page.goto(`${srv.url}#v=ELEVATION`);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    const mapMs = Date.now() - t0;
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
    while (Date.now() - last < 5000) await new Promise((r) => setTimeout(r, 500));
    console.log(JSON.stringify({ dist: process.env.DIST_DIR || 'dist', data: process.env.DATA_DIR ?? 'embedded', firstMapMs: mapMs, firstLoad: sumLog(lines) }, null, 2));
  } finally {
    await browser.close();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main().catch((e) => { console.error(e); process.exit(1); });
