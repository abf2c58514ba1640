/**
 * Size budgets of what a user downloads, checked on the production build (`npm run build`
 * runs before the e2e suite). Budgets are ceilings with headroom over today's sizes, so a
 * change that doubles the first load or the offline bundle fails CI and must say why.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { initialJsGzip } from '../bench/app';

/** Budgets in bytes. */
const BUDGET = {
  /**
   * Entry script + its static imports, gzipped (measured 102 KB on 2026-11-21, 158 KB on
   * 2026-11-27; 160 KB with the first view's preview, src/ui/MapPreview.tsx and
   * src/core/map/first-view.ts, +2.3 KB, which shows the first map at 2.6 s instead of 5 s on
   * 1.6 Mbps: bench/first-visit.ts). 188 KB on 2026-11-29 (papaparse pulled in by the bundle
   * reader, the Areas panel's upload tools and table formats), then 155 KB the same day: the
   * bundle's own CSV files read without papaparse (src/core/csv), their writers apart
   * (src/core/bundle/tables-write.ts), the upload tools loaded when the Areas panel is opened.
   */
  initialJsGzip: 170 * 1024,
  /** The service worker (contract + engine + writers), gzipped (measured 400 KB). */
  swGzip: 600 * 1024,
  /** The embedded data bundle, all files (measured 9.2 MB). */
  bundleBytes: 25 * 1024 * 1024,
};

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    const s = statSync(p);
    n += s.isDirectory() ? dirBytes(p) : s.size;
  }
  return n;
}

test('initial JavaScript stays within its gzipped budget', () => {
  const m = initialJsGzip(process.env.DIST_DIR || 'dist');
  expect(m.files.length).toBeGreaterThan(0);
  expect(m.gzip).toBeLessThanOrEqual(BUDGET.initialJsGzip);
});

test('the service worker stays within its gzipped budget', () => {
  const gz = gzipSync(readFileSync(`${process.env.DIST_DIR || 'dist'}/sw.js`), { level: 9 }).length;
  expect(gz).toBeGreaterThan(10_000);
  expect(gz).toBeLessThanOrEqual(BUDGET.swGzip);
});

test('the embedded data bundle stays within its budget', () => {
  const m = JSON.parse(readFileSync('public/data/manifest.json', 'utf8'));
  const listed = (m.files as Array<{ bytes: number }>).reduce((a, f) => a + f.bytes, 0);
  expect(listed).toBeGreaterThan(1_000_000);
  expect(dirBytes('public/data')).toBeLessThanOrEqual(BUDGET.bundleBytes);
});
