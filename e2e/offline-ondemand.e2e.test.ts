/**
 * Offline on demand (issue 10, item 1) in Chromium: the first load precaches the small
 * bundle files but no COG; what was summarised works offline afterwards (from the service
 * worker's block cache, after an offline reload); an indicator never viewed fails with a
 * clear offline message; a category kept offline (storage dialog, progress) works offline;
 * the storage dialog frees it. Runs against the embedded bundle and, when
 * `bench-out/bundle750` exists (npm run bench:bundle, made-up values), against it via DATA_DIR.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import Papa from 'papaparse';
import { startServer, type Started, injectAxe } from './helpers';
import { perLayerMode, storageStatus, summarise, waitSynced } from './offline-helpers';
import { launch, shot } from './app-helpers';

/**
 * A desktop context in the per-layer (on-demand) mode: the embedded bundle is otherwise kept whole
 * after the first map (keep-everything by default), which races the per-layer assertions below.
 * The 'Free all' preference (`indapi3.keepAll = '0'`) is what a user who chose on-demand has.
 */
async function onDemandContext(browser: Browser) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await perLayerMode(ctx);
  return ctx;
}

interface Manifest { files: Array<{ path: string; bytes: number; sha256: string }> }

function suite(name: string, env: () => Record<string, string>, dataDir: string, first: string, pinCategory: string, pinCode: string, notViewed: string) {
  describe(name, () => {
    let srv: Started;
    let browser: Browser;
    let manifest: Manifest;
    beforeAll(async () => {
      manifest = JSON.parse(readFileSync(path.join(dataDir, 'manifest.json'), 'utf8'));
      srv = await startServer({ LOG: '0', ...env() });
      browser = await launch();
    });
    afterAll(async () => { await browser?.close(); await srv?.stop(); });

    test('first load caches no COG; used data works offline; unviewed data fails clearly; a kept category works offline; freeing', async () => {
      const ctx = await onDemandContext(browser);
      const page = await ctx.newPage();
      await page.goto(`${srv.url}#v=${first}`);
      await waitSynced(page);
      const cogBytes = manifest.files.filter((f) => f.path.endsWith('.tif')).reduce((s, f) => s + f.bytes, 0);
      const st0 = await storageStatus(page);
      expect(st0.pins).toEqual([]);
      expect(st0.blockBytes).toBeLessThan(cogBytes / 4);
      expect(st0.recent.map((r: any) => r.path)).not.toContain(`cog/${notViewed}.tif`);
      expect(await page.evaluate(async () => (await (await caches.open('indapi3-pinned')).keys()).length)).toBe(0);

      // Summarise online, then the same offline after a reload (engine memory gone: the service worker answers).
      const hash = `#v=${first}&iso=RWA&by=ADM1_NAME_ALT`;
      const online = await summarise(page, hash);
      expect(online).not.toMatch(/^ERROR/);
      const st1 = await storageStatus(page);
      expect(st1.recent.map((r: any) => r.path)).toContain(`cog/${first}.tif`);
      await ctx.setOffline(true);
      await page.reload();
      await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000 }).toContain('indapi3');
      expect(await summarise(page, hash)).toBe(online);
      await shot(page, `offline-ondemand-${name}-summary`);

      // Never viewed: a clear offline message. The summary asks for it while the map keeps the layer it
      // shows (a map switch to a layer not stored goes back to the drawn one, issue 23 item 6).
      const failed = await summarise(page, `#v=${first}&vars=${notViewed}&iso=RWA&by=ADM1_NAME_ALT`);
      expect(failed).toMatch(/^ERROR .*(Offline|offline).*not stored on this device/);

      // Keep a category offline (online), then use it offline.
      await ctx.setOffline(false);
      await page.getByTestId('storage-open').click();
      const dialog = page.getByTestId('storage-dialog');
      await dialog.getByTestId('storage-panel').waitFor({ timeout: 30_000 });
      const select = dialog.getByTestId('keep-category');
      await expect.poll(() => select.locator('option').count(), { timeout: 30_000 }).toBeGreaterThan(1);
      const optText = await select.locator('option', { hasText: pinCategory }).first().textContent();
      expect(optText).toMatch(/indicators, [\d.]+ [kMG]B/);
      await select.selectOption({ label: optText! });
      await dialog.getByRole('button', { name: /Keep category offline/ }).click();
      await dialog.locator('[data-testid="pin-progress"][data-complete="1"]').waitFor({ timeout: 120_000 });
      expect(await dialog.getByTestId('pin-progress').textContent()).toMatch(/kept offline/);
      await expect.poll(async () => dialog.getByTestId('pinned-list').textContent(), { timeout: 10_000 }).toContain(pinCode);
      await shot(page, `offline-ondemand-${name}-storage`);
      const st2 = await storageStatus(page);
      expect(st2.pins.map((p: any) => p.path)).toContain(`cog/${pinCode}.tif`);
      // Every file of the category is in the pin list (two downloads run at once and both record their pin),
      // with the key layers its summaries read.
      expect(st2.pins.length).toBeGreaterThanOrEqual(Number(/(\d+) indicators/.exec(optText!)![1]));
      expect(st2.pins.map((p: any) => p.path)).toEqual(expect.arrayContaining(['cog/ISO3.tif', 'cog/ADM1_NAME_ALT.tif']));
      await dialog.getByRole('button', { name: 'Close' }).click();

      await ctx.setOffline(true);
      await page.reload();
      await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000 }).toContain('indapi3');
      const pinned = await summarise(page, `#v=${pinCode}&iso=RWA&by=ADM1_NAME_ALT`);
      expect(pinned).not.toMatch(/^ERROR/);

      // Free all: nothing kept, and after a reload the pinned indicator fails offline again.
      await page.getByTestId('storage-open').click();
      await dialog.getByTestId('storage-clear').click();
      await expect.poll(async () => { const st = await storageStatus(page); return [st.pins.length, st.blockBytes, st.pinnedBytes]; }, { timeout: 10_000 }).toEqual([0, 0, 0]);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await page.reload();
      await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000 }).toContain('indapi3');
      expect(await summarise(page, `#v=${pinCode}&iso=RWA&by=ADM1_NAME_ALT`)).toMatch(/^ERROR .*not stored on this device/);
      await ctx.setOffline(false);
      await ctx.close();
    });

    test('an indicator kept offline on a first visit is summarised by province offline (its weights and key layers are kept with it)', async () => {
      const ctx = await onDemandContext(browser);
      const page = await ctx.newPage();
      await page.goto(`${srv.url}#v=${first}`);
      await waitSynced(page);
      await page.getByTestId('storage-open').click();
      const dialog = page.getByTestId('storage-dialog');
      await dialog.getByTestId('storage-panel').waitFor({ timeout: 30_000 });
      const select = dialog.getByTestId('keep-indicator');
      await expect.poll(() => select.locator('option').count(), { timeout: 30_000 }).toBeGreaterThan(1);
      await select.selectOption(notViewed);
      await dialog.getByRole('button', { name: 'Keep offline', exact: true }).click();
      await dialog.locator('[data-testid="pin-progress"][data-complete="1"]').waitFor({ timeout: 120_000 });
      const st = await storageStatus(page);
      const kept = st.pins.map((p: any) => p.path);
      expect(kept).toEqual(expect.arrayContaining([`cog/${notViewed}.tif`, 'cog/ISO3.tif', 'cog/ADM1_NAME_ALT.tif']));
      await dialog.getByRole('button', { name: 'Close' }).click();
      await ctx.setOffline(true);
      await page.reload();
      await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000 }).toContain('indapi3');
      const offline = await summarise(page, `#v=${notViewed}&iso=RWA&by=ADM1_NAME_ALT`);
      expect(offline).not.toMatch(/^ERROR/);
      await ctx.setOffline(false);
      await ctx.close();
    });
  });
}

test('CACHE_MB sets the budget through /config.json; the storage dialog passes axe', async () => {
  const srv = await startServer({ LOG: '0', CACHE_MB: '50' });
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION`);
    await waitSynced(page);
    expect((await storageStatus(page)).budgetBytes).toBe(50 * 1024 * 1024);
    await page.getByTestId('storage-open').click();
    await page.getByTestId('storage-panel').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('keep-category').locator('option').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await injectAxe(page);
    const r = await page.evaluate(async () => (window as any).axe.run(document.querySelector('[data-testid="storage-dialog"]'), { resultTypes: ['violations'] }));
    const bad = (r.violations as any[]).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
    await ctx.close();
  } finally {
    await browser.close();
    await srv.stop();
  }
});

suite('embedded', () => ({ DATA_DIR: path.resolve('public/data') }), 'public/data', 'ELEVATION', 'Demographics', 'PN14_POP', 'SLOPE');

const big = path.resolve('bench-out/bundle750');
if (existsSync(path.join(big, 'manifest.json'))) {
  // Made-up values (bench bundle): keep the smallest category whose COGs are all listed, summarise one of it, and one outside it.
  const rows = Papa.parse<Record<string, string>>(readFileSync(path.join(big, 'vi.csv'), 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
  const m = JSON.parse(readFileSync(path.join(big, 'manifest.json'), 'utf8')) as Manifest;
  const cogs = new Set(m.files.map((f) => f.path));
  const by = new Map<string, string[]>();
  for (const r of rows) if (cogs.has(`cog/${r.varCode}.tif`) && r.type !== 'class') by.set(r.cat1, [...(by.get(r.cat1) ?? []), r.varCode]);
  const [cat, codes] = [...by].filter(([c]) => c).sort((a, b) => a[1].length - b[1].length)[0];
  const others = rows.filter((r) => cogs.has(`cog/${r.varCode}.tif`) && !codes.includes(r.varCode) && r.type !== 'class' && !/^ADM|^ISO3/.test(r.varCode)).map((r) => r.varCode);
  suite('bundle750', () => ({ DATA_DIR: big }), big, others[0], cat, codes[0], others[1]);
}
