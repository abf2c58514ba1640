/**
 * The 8-hour walking catchment from Nairobi in Chromium (issue 19 target: under 1 s), run
 * after a build: `npm run build && npx tsx bench/catchment-browser.ts`. The page's engine
 * worker (the app's own, `window.__indapiEngine`) runs `catchment` with PN14_POP per band;
 * the time is taken in the page (performance.now around the call): one cold run (COGs
 * fetched), then the median of 7 warm runs. Prints one JSON object.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../e2e/helpers';
import { launch } from '../e2e/app-helpers';

/** Runs the browser catchment bench; returns cold and warm milliseconds. */
export async function catchmentBrowserBench(): Promise<{ coldMs: number; warmMs: number; cells: number }> {
  const srv = await startServer();
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION`);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    return await page.evaluate(async () => {
      const engine = (window as any).__indapiEngine();
      const args = { xy: [[36.82, -1.29]], minutes: [0, 60, 120, 240, 480], var: ['PN14_POP'] };
      const times: number[] = [];
      let cells = 0;
      for (let i = 0; i < 8; i++) {
        const t = performance.now();
        const r = await engine.catchment(args);
        times.push(performance.now() - t);
        cells = r.bands.reduce((a: number, b: { ids: number[] }) => a + b.ids.length, 0);
      }
      const warm = times.slice(1).sort((a, b) => a - b);
      return { coldMs: times[0], warmMs: warm[Math.floor(warm.length / 2)], cells };
    });
  } finally {
    await browser.close();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  catchmentBrowserBench().then((r) => console.log(JSON.stringify({ case: 'Nairobi 8 h walking, Chromium engine worker', target_ms: 1000, ...r }, null, 2))).catch((e) => { console.error(e); process.exit(1); });
}
