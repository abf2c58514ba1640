import { startServer } from '../e2e/helpers';
import { launch } from '../e2e/app-helpers';
const srv = await startServer({ LOG: '0' });
const b = await launch();
try {
  const ctx = await b.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=ELEVATION&cmp=swipe');
  await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.start');
  const r = await page.evaluate(`new Promise((res) => {
    const t0 = performance.now(); const ev = []; let started = false; const seen = new Set();
    const mo = new MutationObserver(() => {
      const busy = !!document.querySelector('[data-testid="compare-progress"]'); if (busy && !started) { started = true; ev.push(['progress', performance.now() - t0]); }
      if (!seen.has('canvas') && document.querySelector('[data-testid="compare-second"] canvas')) { seen.add('canvas'); ev.push(['canvas', performance.now() - t0]); }
      if (!seen.has('legend') && document.querySelector('[data-testid="compare-legend"] .legend, [data-testid="compare-legend"] svg')) { seen.add('legend'); ev.push(['legend', performance.now() - t0]); }
      if (started && !busy) { mo.disconnect(); ev.push(['done', performance.now() - t0]); res(ev); }
    });
    mo.observe(document.body, { subtree: true, childList: true, attributes: true });
    location.hash = location.hash + '&v2=SLOPE';
  })`);
  console.log(JSON.stringify(r));
  const { profile } = await cdp.send('Profiler.stop') as any;
  const self = new Map<string, number>();
  const dt = profile.timeDeltas as number[];
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  profile.samples.forEach((id: number, i: number) => { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000); });
  console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, v]) => `${v.toFixed(1)}ms ${k}`).join('\n'));
  await ctx.close();
} finally { await b.close(); await srv.stop(); }
