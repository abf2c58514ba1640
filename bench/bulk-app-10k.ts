/**
 * The app's "Many polygons" run at full size, in Chromium (not a CI test: it takes minutes on
 * the 2-core machine). Fixture: a regular tessellation of a real country, the Democratic
 * Republic of the Congo: squares of 0.12 degrees (about 13 km) over its bounding box, clipped by GDAL
 * `ogr2ogr -clipsrc` to its outline in the bundle (`basemap/countries.geojson`, ISO3 COD), the
 * first 10,000 from the north kept, written as a GeoPackage (`fixture-cod-squares.gpkg`). The script serves
 * the built app (`npm run build` first), uploads the file in the Areas panel with exact
 * coverage and the statistic `mean`, waits on the job's progress, saves the table as CSV
 * through the app, and compares 20 rows (every 500th shape) with R `terra::extract(exact =
 * TRUE)` on the bundle's COGs: POP_MODEL (catalog formula sum: sum(f x)) and ELEVATION_mean
 * (sum(f x) / sum(f) over cells with a value). Prints the timings and the largest differences.
 * Usage: npx tsx bench/bulk-app-10k.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { chromium } from 'playwright-core';
import { startServer } from '../e2e/helpers';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '../public/data');
const N = 10_000;
const STEP_DEG = 0.12;

/** The fixture GeoPackage (see the file's comment): path of `fixture-cod-squares.gpkg` in `dir`. */
function fixture(dir: string): string {
  const countries = JSON.parse(readFileSync(join(DATA, 'basemap/countries.geojson'), 'utf8')) as { features: Array<{ properties: { iso3: string }; geometry: { coordinates: number[][][][] } }> };
  const cod = countries.features.find((f) => f.properties.iso3 === 'COD')!;
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  for (const poly of cod.geometry.coordinates) for (const ring of poly) for (const [x, y] of ring) { w = Math.min(w, x); e = Math.max(e, x); s = Math.min(s, y); n = Math.max(n, y); }
  const features = [];
  for (let y = n; y > s; y -= STEP_DEG) {
    for (let x = w; x < e; x += STEP_DEG) {
      const r = [[x, y - STEP_DEG], [x + STEP_DEG, y - STEP_DEG], [x + STEP_DEG, y], [x, y], [x, y - STEP_DEG]].map((p) => p.map((v) => +v.toFixed(6)));
      features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [r] } });
    }
  }
  writeFileSync(join(dir, 'grid.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
  writeFileSync(join(dir, 'cod.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [cod] }));
  const out = join(dir, 'fixture-cod-squares.gpkg');
  // clip every square, then keep the first N (ogr2ogr's -limit counts the features read, before the clip)
  execFileSync('ogr2ogr', ['-f', 'GPKG', join(dir, 'clipped.gpkg'), join(dir, 'grid.geojson'), '-clipsrc', join(dir, 'cod.geojson'), '-nlt', 'PROMOTE_TO_MULTI', '-nln', 'squares'], { stdio: 'pipe' });
  execFileSync('ogr2ogr', ['-f', 'GPKG', out, join(dir, 'clipped.gpkg'), '-limit', String(N), '-nln', 'squares'], { stdio: 'pipe' });
  return out;
}

/** R's values of the sampled shapes: terra::extract(exact = TRUE) fractions f per cell. */
function rValues(gpkg: string, ids: number[], dir: string): Array<{ id: number; pop: number; elev: number }> {
  const script = join(dir, 'x.R');
  writeFileSync(script, `suppressMessages({ library(terra); library(jsonlite) })
v <- vect(${JSON.stringify(gpkg)})
ids <- c(${ids.join(', ')})
p <- v[ids]
r <- c(rast(${JSON.stringify(join(DATA, 'cog/POP_MODEL.tif'))}), rast(${JSON.stringify(join(DATA, 'cog/ELEVATION.tif'))}))
names(r) <- c("pop", "elev")
x <- extract(r, p, exact = TRUE)
out <- lapply(seq_along(ids), function(i) { d <- x[x$ID == i & x$fraction > 0, ]
  ok <- !is.na(d$elev)
  list(id = ids[i], pop = sum(d$pop * d$fraction, na.rm = TRUE), elev = sum(d$elev[ok] * d$fraction[ok]) / sum(d$fraction[ok])) })
cat(toJSON(out, auto_unbox = TRUE, digits = NA))
`);
  return JSON.parse(execFileSync('Rscript', [script], { encoding: 'utf8', maxBuffer: 1 << 24 })) as Array<{ id: number; pop: number; elev: number }>;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bulk-10k-'));
  const srv = await startServer();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const gpkg = fixture(dir);
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
    await page.goto(`${srv.url}#v=ELEVATION&vars=POP_MODEL,ELEVATION&panel=areas&exact=1&st=mean`);
    const bulk = page.getByTestId('bulk');
    let t = Date.now();
    await bulk.getByTestId('bulk-file').setInputFiles(gpkg);
    await bulk.getByTestId('bulk-read').waitFor({ timeout: 600_000 });
    console.log(`read: ${await bulk.getByTestId('bulk-read').textContent()} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    t = Date.now();
    await bulk.getByRole('button', { name: /^Summarise 10,000 shapes$/ }).click();
    const seen = new Set<string>();
    for (;;) {
      if (await bulk.getByTestId('bulk-table').count()) break;
      const err = await bulk.getByTestId('bulk-error').count();
      if (err) throw new Error(await bulk.getByTestId('bulk-error').textContent() ?? 'error');
      const p = await bulk.locator('progress').first().getAttribute('value').catch(() => null);
      const pct = p === null ? null : Math.floor(Number(p) / 10);
      if (pct !== null && !seen.has(String(pct))) { seen.add(String(pct)); console.log(`progress ${p} at ${((Date.now() - t) / 1000).toFixed(1)} s`); }
      await page.waitForTimeout(250);
    }
    const jobS = (Date.now() - t) / 1000;
    const rowsShown = await bulk.getByTestId('bulk-table').getAttribute('data-rows');
    console.log(`job: ${rowsShown} rows in ${jobS.toFixed(1)} s (upload to table)`);
    await bulk.locator('input[name="bulk-format"][value="csv"]').check();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), bulk.getByTestId('bulk-save').click()]);
    const zip = await JSZip.loadAsync(readFileSync((await dl.path())!));
    const csv = await zip.file(Object.keys(zip.files).find((n) => n.endsWith('.csv') && n !== 'meta.csv')!)!.async('string');
    const [head, ...lines] = csv.trim().split(/\r?\n/);
    const cols = head.split(',').map((c) => c.replace(/"/g, ''));
    const at = (c: string) => cols.indexOf(c);
    const app = new Map(lines.map((l) => l.split(',')).map((v) => [Number(v[at('feature')]), { pop: Number(v[at('POP_MODEL')]), elev: Number(v[at('ELEVATION_mean')]) }]));
    const ids = Array.from({ length: 20 }, (_, i) => 1 + i * 500);
    // the rows are rounded to the catalog's decimals (0 for both): equal when within half a unit of R's value
    const within = (x: number, y: number) => Math.abs(x - y) <= 0.5 + 1e-9 * Math.abs(y);
    let popOk = 0, elevOk = 0;
    for (const r of rValues(gpkg, ids, dir)) {
      const a = app.get(r.id)!;
      if (within(a.pop, r.pop)) popOk++;
      if (within(a.elev, r.elev)) elevOk++;
      console.log(`shape ${r.id}: POP_MODEL app ${a.pop} R ${r.pop.toFixed(2)}${within(a.pop, r.pop) ? '' : ' DIFFERS'}; ELEVATION_mean app ${a.elev} R ${r.elev.toFixed(3)}${within(a.elev, r.elev) ? '' : ' DIFFERS'}`);
    }
    console.log(`RESULT rows=${rowsShown} job_s=${jobS.toFixed(1)}; equal to terra::extract(exact = TRUE) as rounded: POP_MODEL ${popOk}/20, ELEVATION_mean ${elevOk}/20`);
  } finally {
    await browser.close();
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
