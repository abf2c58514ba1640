/**
 * App benchmark (run after `npm run build`: `npx tsx bench/app.ts`): on localhost with
 * Debian Chromium, the first map render time (navigation start to the first idle map with
 * the indicator's raster), the first summary time (ELEVATION by ADM1 for Kenya, click to
 * table), and the gzipped size of the initial JavaScript (entry script and its static
 * imports/modulepreloads in dist/index.html). Prints one JSON object.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../e2e/helpers';
import { launch } from '../e2e/app-helpers';

/** Gzipped bytes of the scripts the page loads before any lazy import. */
export function initialJsGzip(dist = 'dist'): { files: string[]; bytes: number; gzip: number } {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) files.add(m[1].replace(/^\.\//, ''));
  // static imports of the entry (rolldown emits them as import statements at the top)
  for (const f of [...files]) {
    const src = readFileSync(path.join(dist, f), 'utf8');
    for (const m of src.matchAll(/^import\s*(?:[^'"]*from\s*)?["']\.\/([^"']+\.js)["']/gm)) files.add(path.join(path.dirname(f), m[1]));
  }
  let bytes = 0, gzip = 0;
  for (const f of files) { const b = readFileSync(path.join(dist, f)); bytes += b.length; gzip += gzipSync(b, { level: 9 }).length; }
  return { files: [...files], bytes, gzip };
}

async function main() {
  const srv = await startServer({ LOG: '0' });
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT`);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    const firstMapMs = await page.evaluate(() => (window as any).__indapiFirstRender as number);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await page.locator('[data-testid="summary-result"] tbody tr').first().waitFor({ timeout: 120_000 });
    const firstSummaryMs = Date.now() - t0;
    console.log(JSON.stringify({ firstMapMs: Math.round(firstMapMs), firstSummaryMs, initialJs: initialJsGzip() }, null, 2));
  } finally {
    await browser.close();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main().catch((e) => { console.error(e); process.exit(1); });
