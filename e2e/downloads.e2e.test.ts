/**
 * The download matrix (issue 23 item 1): for every panel that offers downloads (Summaries,
 * Areas, Table, Compare, Catchment) and every format its Download tab lists, the ZIP is built
 * in the browser and read back here: the data file is there, not empty, and holds what the
 * panel showed (the panel's numbers, to its decimals, in the tables, GeoJSON and zonal
 * rasters; rasters: size, no-data and values in range). Once online, once offline after
 * the service worker holds the bundle. R (haven for .dta, base R for .rds and .rda, terra for
 * the .tif) reads the files back, so a real reader checks them. One browser context, one page,
 * the ZIP read from the panel's "Save again" link (no download events: Chromium blocks
 * repeated ones). The ZIPs of the summary are kept in test-results/downloads/.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import JSZip from 'jszip';
import Papa from 'papaparse';
import { fromArrayBuffer } from 'geotiff';
import initSqlJs from 'sql.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Started } from './helpers';
import { serverAndBrowser } from './app-helpers';
import { waitSynced } from './offline-helpers';

let srv: Started;
let browser: Browser;
serverAndBrowser((s, b) => { srv = s; browser = b; });

const OUT = 'test-results/downloads';
/** A shape across Kenya, Tanzania and Uganda: a row per country and a total row. */
const WKT = encodeURIComponent('POLYGON ((33 -2, 35 -2, 35 0.5, 33 0.5, 33 -2))');

/** A panel with downloads: its link (which runs it), its result table and what its files must hold. */
interface PanelCase {
  name: string;
  hash: string;
  result: string;
  /** Formats the Download tab must list, in order. */
  formats: string[];
  /** Whether the per-cell files hold the summary of each group (a zonal map) rather than each cell's value. */
  zonal: boolean;
  /** Columns to compare (continuous indicators and counts; class columns are coded differently per format). */
  cols: string[];
}
/** The Catchment case's marketshed: two named sources, one name with accents (a user's name, kept as typed; fixture). */
const MARKETS: Array<[number, number, string]> = [[36.82, -1.29, 'Nairobi'], [39.67, -4.05, 'Mombasa (côte, Likoni–Nyali)']];
const ALL = ['csv', 'dta', 'rds', 'rda', 'json', 'tif', 'asc', 'grd', 'plot', 'hist', 'gpkg'];
const PANELS: PanelCase[] = [
  { name: 'Summaries', hash: '#v=ELEVATION&vars=ELEVATION,ELEV_ZONE&iso=KEN&by=ADM1_NAME_ALT&run=summary', result: 'summary-result', formats: ALL, zonal: true, cols: ['ELEVATION'] },
  { name: 'Areas', hash: `#v=ELEVATION&vars=ELEVATION,AREA_TOTAL&panel=areas&wkt=${WKT}&run=areas`, result: 'areas-result', formats: ALL, zonal: false, cols: ['ELEVATION', 'AREA_TOTAL'] },
  { name: 'Table', hash: '#v=ELEVATION&iso=KEN&panel=table&run=table&tv=ELEVATION&tr=ADM1_NAME_ALT&tc=ELEV_ZONE', result: 'table-result', formats: ALL, zonal: true, cols: ['ELEVATION'] },
  { name: 'Compare', hash: '#v=ELEVATION&vars=ELEVATION,DIST_COAST&iso=KEN&panel=compare&run=compare&pick=36.82,-1.29', result: 'compare-result', formats: ['csv', 'dta', 'rds', 'rda', 'gpkg'], zonal: false, cols: ['ELEVATION', 'DIST_COAST'] },
  { name: 'Catchment', hash: `#v=ELEVATION&panel=catchment&src=${encodeURIComponent(JSON.stringify(MARKETS))}&cm=0%2C120%2C240%2C480&vars=PN14_POP`, result: 'catchment-result', formats: ['csv', 'dta', 'rds', 'rda', 'tif', 'asc', 'grd', 'json'], zonal: true, cols: ['cells_within', 'area_km2_within', 'PN14_POP_within'] },
];

let ctx: BrowserContext;
let page: Page;
const errors: string[] = [];
beforeAll(async () => {
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
});

const num = (t: string) => Number(t.replace(/[,\s]/g, '').replace('−', '-'));
const decimalsOf = (t: string) => (t.split('.')[1] ?? '').length;
const roundTo = (x: number, d: number) => Number(x.toFixed(d));

/** Opens a panel's link on a fresh load and returns the numbers its result shows, per column ('*' for the Table's pivot). */
async function openPanel(p: PanelCase): Promise<Map<string, string[]>> {
  await page.goto('about:blank');
  await page.goto(srv.url + p.hash);
  const res = page.locator(`[data-testid="${p.result}"]`);
  await expect.poll(() => res.locator('tbody tr').count(), { timeout: 180_000 }).toBeGreaterThan(1);
  const cells = await res.locator('tbody td').evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-col') ?? '*', (td.textContent ?? '').trim(), td.closest('tr')?.hasAttribute('data-pinned') ? 1 : 0] as [string, string, number]));
  const out = new Map<string, string[]>();
  for (const [c, t, pinned] of cells) {
    if (pinned || !/^[−-]?[\d,]+(\.\d+)?$/.test(t)) continue;
    out.set(c, [...(out.get(c) ?? []), t]);
  }
  if (p.name === 'Table') {
    // the pivot's cells: each ELEVATION of a (row, column) group; the Total row and the "All selected" column are summaries over several
    const pivot = await res.locator('tbody tr').evaluateAll((trs) => trs.filter((tr) => !/^Total/.test(tr.textContent ?? '')).flatMap((tr) => [...tr.querySelectorAll('td')].slice(0, -1).map((td) => (td.textContent ?? '').trim())));
    out.set('ELEVATION', pivot.filter((t) => /^[−-]?[\d,]+(\.\d+)?$/.test(t)));
  }
  await page.getByRole('tab', { name: 'Download' }).click();
  // the panel's code loads on first open; its formats are listed once it is there
  await page.locator('#panel-download input[name="dl-format"]').first().waitFor({ timeout: 60_000 });
  return out;
}

/** Builds `format` in the Download tab and returns the ZIP's name and bytes, read from the panel's link. */
async function build(format: string): Promise<{ name: string; zip: JSZip; bytes: Buffer }> {
  const panel = page.locator('#panel-download');
  await panel.locator(`input[name="dl-format"][value="${format}"]`).check();
  await panel.getByRole('button', { name: 'Build and save ZIP' }).click();
  const result = panel.locator('[data-testid="download-result"] p code').first();
  const alert = panel.locator('[role="alert"]');
  await expect.poll(async () => ((await alert.count()) ? `ERROR ${await alert.first().textContent()}` : ((await result.count()) ? await result.textContent() : '')), { timeout: 180_000 }).toMatch(new RegExp(`\\.${format}\\.zip$`));
  const name = (await result.textContent())!;
  const b64 = await panel.locator('[data-testid="download-result"] a[download]').evaluate(async (a) => {
    const b = new Uint8Array(await (await fetch((a as HTMLAnchorElement).href)).arrayBuffer());
    let s = '';
    for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return btoa(s);
  });
  const bytes = Buffer.from(b64, 'base64');
  return { name, zip: await JSZip.loadAsync(bytes), bytes };
}

const list = (z: JSZip) => Object.keys(z.files).filter((n) => !z.files[n].dir).sort();
const one = (z: JSZip, re: RegExp) => { const n = list(z).filter((f) => re.test(f)); expect(n.length, `${re} in ${list(z).join(', ')}`).toBeGreaterThan(0); return n[0]; };
const bytesOf = async (z: JSZip, n: string) => Buffer.from(await z.file(n)!.async('uint8array'));

/** Every number the panel showed is in `values` (to the panel's decimals), each used once. */
function expectHolds(shown: string[], values: number[], what: string): void {
  const pool = values.filter((v) => Number.isFinite(v));
  for (const t of shown) {
    const d = decimalsOf(t), want = num(t);
    const k = pool.findIndex((v) => roundTo(v, d) === want);
    expect(k, `${what}: the panel's ${t} is not in the file (${pool.slice(0, 12).join(', ')}…)`).toBeGreaterThanOrEqual(0);
    pool.splice(k, 1);
  }
}

/** The tables R reads from the .dta (haven), .rds (readRDS) and .rda (load), as CSV text. */
function readWithR(files: Record<string, Buffer>): Record<string, Array<Record<string, string>>> {
  const dir = mkdtempSync(join(tmpdir(), 'indapi-dlm-'));
  try {
    const args: string[] = [];
    for (const [ext, b] of Object.entries(files)) { writeFileSync(join(dir, `x.${ext}`), b); args.push(ext, join(dir, `x.${ext}`), join(dir, `${ext}.csv`)); }
    const script = [
      'a <- commandArgs(TRUE)',
      'for (i in seq(1, length(a), 3)) {',
      '  d <- switch(a[i], dta = as.data.frame(haven::zap_labels(haven::read_dta(a[i + 1]))), rds = readRDS(a[i + 1]), rda = { e <- new.env(); get(load(a[i + 1], envir = e), e) })',
      '  write.csv(d, a[i + 2], row.names = FALSE, fileEncoding = "UTF-8")',
      '}',
    ].join('\n');
    writeFileSync(join(dir, 'read.R'), script);
    execFileSync('Rscript', [join(dir, 'read.R'), ...args], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return Object.fromEntries(Object.keys(files).map((ext) => [ext, Papa.parse<Record<string, string>>(readFileSync(join(dir, `${ext}.csv`), 'utf8').trim(), { header: true }).data]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Values of a raster file of the package: width, height, no-data count and the values with data. */
async function rasterValues(z: JSZip, format: string, code: string): Promise<{ width: number; height: number; noData: number; values: number[] }> {
  if (format === 'tif') {
    const buf = await bytesOf(z, one(z, new RegExp(`-${code}-.*\\.tif$|^catchment-TRAVEL_TIME.*\\.tif$`)));
    const img = await (await fromArrayBuffer(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength))).getImage();
    const nd = img.getGDALNoData();
    const [band] = (await img.readRasters()) as unknown as ArrayLike<number>[];
    const all = Array.from(band);
    return { width: img.getWidth(), height: img.getHeight(), noData: all.filter((v) => v === nd).length, values: all.filter((v) => v !== nd) };
  }
  if (format === 'asc') {
    const text = (await bytesOf(z, one(z, new RegExp(`-${code}-.*\\.asc$|^catchment-TRAVEL_TIME.*\\.asc$`)))).toString('latin1');
    const lines = text.split(/\r?\n/);
    const h = Object.fromEntries(lines.slice(0, 6).map((l) => l.trim().split(/\s+/)).map(([k, v]) => [k.toLowerCase(), Number(v)]));
    const all = lines.slice(6).join(' ').trim().split(/\s+/).map(Number);
    expect(all.length).toBe(h.ncols * h.nrows);
    return { width: h.ncols, height: h.nrows, noData: all.filter((v) => v === h.nodata_value).length, values: all.filter((v) => v !== h.nodata_value) };
  }
  const grd = (await bytesOf(z, one(z, /\.grd$/))).toString('utf8');
  const width = Number(/ncols\s*=\s*(\d+)/.exec(grd)![1]), height = Number(/nrows\s*=\s*(\d+)/.exec(grd)![1]);
  const names = /layername\s*=\s*(.*)/.exec(grd)![1].trim().split(':');
  const size = Number(/datatype\s*=\s*FLT(\d)S/.exec(grd)![1]);
  const nd = Number(/nodatavalue\s*=\s*(\S+)/.exec(grd)?.[1] ?? NaN);
  const gri = await bytesOf(z, one(z, /\.gri$/));
  expect(gri.byteLength).toBe(width * height * names.length * size);
  const k = Math.max(0, names.indexOf(code)), n = width * height;
  // band interleaved by line: row r of band k starts at (r * bands + k) * width
  const at = (i: number) => ((Math.floor(i / width) * names.length + k) * width + (i % width)) * size;
  const all = Array.from({ length: n }, (_, i) => (size === 8 ? gri.readDoubleLE(at(i)) : gri.readFloatLE(at(i))));
  const isNd = (v: number) => Number.isNaN(v) || v === nd || v < -1e30;
  return { width, height, noData: all.filter(isNd).length, values: all.filter((v) => !isNd(v)) };
}

/** The panel's R data files (dta, rds, rda) waiting for {@link rChecks}. */
let forR: Record<string, Buffer> = {};

/** R reads the panel's .dta, .rds and .rda in one run; each holds the panel's numbers. */
function rChecks(p: PanelCase, shown: Map<string, string[]>): void {
  const read = readWithR(forR);
  for (const [format, rows] of Object.entries(read)) {
    for (const c of p.cols) if (shown.has(c)) expectHolds(shown.get(c)!, rows.map((r) => Number(r[c])), `${p.name} ${format} (read by R) ${c}`);
    if (p.name === 'Catchment') expect(sourceIds(rows), `${p.name} ${format} (read by R): source_id -> source`).toEqual(MARKET_IDS);
  }
  forR = {};
}

/** The marketshed's NEAREST_SOURCE ids as every format must hold them: 1-based, in the order of the sources, with their names. */
const MARKET_IDS = Object.fromEntries(MARKETS.map(([, , name], i) => [String(i + 1), name]));

/** source_id -> source name of a catchment table's rows (the all-sources rows have neither). */
function sourceIds(rows: Array<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.source_id !== undefined && r.source_id !== null && r.source_id !== '' && r.source_id !== 'NA') out[String(Number(r.source_id))] = String(r.source);
  return out;
}

/** Distinct values of the NEAREST_SOURCE GeoTIFF read by GDAL (Debian gdal-bin: gdal_translate to XYZ, gdalinfo's no-data), no-data left out. */
function gdalIds(tif: Buffer): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'indapi-dlm-'));
  try {
    const f = join(dir, 'x.tif');
    writeFileSync(f, tif);
    const nd = JSON.parse(execFileSync('gdalinfo', ['-json', f], { encoding: 'utf8', timeout: 60_000 })).bands[0].noDataValue;
    const xyz = execFileSync('gdal_translate', ['-q', '-of', 'XYZ', f, '/vsistdout/'], { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
    const vals = new Set(xyz.trim().split('\n').map((l) => Number(l.trim().split(/\s+/)[2])).filter((v) => Number.isFinite(v) && v !== nd));
    return [...vals].sort((x, y) => x - y);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Checks the ZIP of one format against what the panel showed. */
async function checkZip(p: PanelCase, format: string, z: JSZip, shown: Map<string, string[]>): Promise<void> {
  const files = list(z);
  for (const f of files) expect((await z.file(f)!.async('uint8array')).byteLength, `${f} is empty`).toBeGreaterThan(0);
  if (format === 'csv') {
    const rows = Papa.parse<Record<string, string>>((await z.file(one(z, /^(?!meta\.csv$).*\.csv$/))!.async('string')).trim(), { header: true }).data;
    for (const c of p.cols) if (shown.has(c)) expectHolds(shown.get(c)!, rows.map((r) => Number(r[c])), `${p.name} csv ${c}`);
    expect(files).toEqual(expect.arrayContaining(['datapackage.json', 'meta.csv', 'README.md', 'DESCRIPTION']));
    if (p.name === 'Catchment') expect(sourceIds(rows), 'Catchment csv: source_id -> source').toEqual(MARKET_IDS);
  } else if (format === 'dta' || format === 'rds' || format === 'rda') {
    const raw = await bytesOf(z, one(z, new RegExp(`\\.${format}$`)));
    if (format !== 'dta') expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
    else expect(raw.subarray(0, 11).toString('latin1')).toBe('<stata_dta>');
    if (format === 'rda') expect(gunzipSync(raw).subarray(0, 5).toString('latin1')).toBe('RDX3\n');
    forR[format] = raw; // read by R once for the panel (one Rscript start, see rChecks)
  } else if (format === 'gpkg') {
    const raw = await bytesOf(z, one(z, /\.gpkg$/));
    expect(raw.subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    const db = new (await initSqlJs()).Database(raw);
    try {
      const [layer] = db.exec('SELECT table_name FROM gpkg_contents')[0].values[0] as string[];
      expect(db.exec('SELECT srs_id FROM gpkg_geometry_columns')[0].values[0][0]).toBe(4326);
      const t = db.exec(`SELECT * FROM "${layer}"`)[0];
      const rows = t.values.map((v) => Object.fromEntries(t.columns.map((c, i) => [c, v[i]])));
      for (const c of p.cols) if (shown.has(c)) expectHolds(shown.get(c)!, rows.map((r) => Number(r[c])), `${p.name} gpkg ${c}`);
      if (p.name === 'Summaries') expect(rows.every((r) => r.geom !== null), 'every province and the total have an outline').toBe(true);
    } finally {
      db.close();
    }
  } else if (format === 'json') {
    const gj = JSON.parse(await z.file(one(z, /\.geojson$/))!.async('string'));
    expect(gj.type).toBe('FeatureCollection');
    expect(gj.features.length).toBeGreaterThan(0);
    const props = gj.features.map((f: any) => f.properties);
    if (p.name === 'Catchment') expect(sourceIds(props), 'Catchment json: source_id -> source').toEqual(MARKET_IDS);
    // a marketshed's GeoJSON has a feature per source x band (the all-sources rows have no polygon of their own): each is a row the panel showed
    if (p.name === 'Catchment') for (const c of p.cols) for (const r of props) expect(shown.get(c)!.some((t) => roundTo(Number(r[c]), decimalsOf(t)) === num(t)), `Catchment json ${c} ${r[c]} is on screen`).toBe(true);
    else if (p.zonal) for (const c of p.cols) if (shown.has(c)) expectHolds(shown.get(c)!, props.map((r: any) => Number(r[c])), `${p.name} json ${c}`);
    else for (const f of gj.features) expect(f.geometry.type).toBe('Point');
  } else if (format === 'tif' || format === 'asc' || format === 'grd') {
    const code = p.name === 'Catchment' ? 'TRAVEL_TIME' : 'ELEVATION';
    const r = await rasterValues(z, format, code);
    expect(r.width * r.height).toBeGreaterThan(1);
    expect(r.values.length, `${p.name} ${format}: cells with data`).toBeGreaterThan(0);
    // a zonal map or a catchment covers part of its window: the rest is no-data (a rectangle over land may have none)
    if (p.zonal) expect(r.noData, `${p.name} ${format}: no-data cells outside the selection`).toBeGreaterThan(0);
    if (p.name === 'Catchment') {
      expect(Math.min(...r.values)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...r.values)).toBeLessThanOrEqual(480);
      // the nearest-source raster holds the tables' 1-based source_id (both sources' cells), read by GDAL for the GeoTIFF
      const ids = format === 'tif' ? gdalIds(await bytesOf(z, one(z, /NEAREST_SOURCE.*\.tif$/))) : [...new Set((await rasterValues(z, format, 'NEAREST_SOURCE')).values)].sort((a, b) => a - b);
      expect(ids, `Catchment ${format}: NEAREST_SOURCE ids`).toEqual(Object.keys(MARKET_IDS).map(Number));
    } else if (p.zonal) {
      const distinct = [...new Set(r.values)];
      expectHolds([...new Set(shown.get('ELEVATION')!)], distinct, `${p.name} ${format} ELEVATION (zonal)`);
    } else {
      const e = num(shown.get('ELEVATION')![0]);
      expect(e).toBeGreaterThanOrEqual(Math.min(...r.values) - 1);
      expect(e).toBeLessThanOrEqual(Math.max(...r.values) + 1);
    }
  } else if (format === 'plot' || format === 'hist') {
    const png = files.filter((f) => f.endsWith('.png'));
    expect(png.length).toBeGreaterThan(0);
    for (const f of png) expect([...(await bytesOf(z, f)).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    for (const f of files.filter((n) => n.endsWith('.svg'))) expect(await z.file(f)!.async('string')).toMatch(/<svg[\s>]/);
  } else {
    throw new Error(`no check for format ${format}: add one`);
  }
}

/** Runs every panel and format; `tag` names the pass in failures. */
async function matrix(tag: string): Promise<Map<string, JSZip>> {
  const kept = new Map<string, JSZip>();
  // DL_PANELS=Areas,Catchment runs some panels only (when debugging)
  const only = process.env.DL_PANELS?.split(',');
  for (const p of PANELS.filter((x) => !only || only.includes(x.name))) {
    const shown = await openPanel(p);
    for (const c of p.cols.filter((x) => p.name !== 'Table' || x === 'ELEVATION')) expect(shown.get(c)?.length ?? 0, `${tag} ${p.name}: the panel shows ${c}`).toBeGreaterThan(0);
    const listed = await page.locator('#panel-download input[name="dl-format"]').evaluateAll((es) => es.map((e) => (e as HTMLInputElement).value));
    expect(listed.filter((f) => p.formats.includes(f)), `${tag} ${p.name}: formats listed`).toEqual(p.formats);
    for (const f of listed) {
      const { name, zip, bytes } = await build(f);
      if (p.name === 'Summaries' && tag === 'online') writeFileSync(join(OUT, name), bytes);
      kept.set(`${p.name}/${f}`, zip);
      await checkZip(p, f, zip, shown);
    }
    rChecks(p, shown);
  }
  return kept;
}

describe('the download matrix: every panel, every format it lists, built in the browser', () => {
  let online: Map<string, JSZip>;
  test('online', async () => {
    online = await matrix('online');
    if (process.env.DL_PANELS) return;
    // the summary's package names, as the spec gives them (`<vars>-<by>-<ISO3>.<format>.zip`, data files `getLayer-…`)
    const csv = online.get('Summaries/csv')!;
    expect(list(csv)).toEqual(['DESCRIPTION', 'README.md', 'datapackage.json', 'getLayer-ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.csv', 'meta.csv', 'terms.html'].sort());
    const readme = await csv.file('README.md')!.async('string');
    // the reproduce commands name the page's origin (answered by the service worker) and send format in the JSON body
    expect(readme).toContain(`BASE='${srv.url}ocpu'`);
    expect(readme).toMatch(/curl -s -D headers\.txt "\$BASE\/library\/indapi3\/R\/indapi" -H 'Content-Type: application\/json' -d '\{[^']*"format":"csv"\}'/);
    expect(errors).toEqual([]);
  }, 600_000);

  // R with haven and terra is required (installed by .ci/run); a missing reader fails, never skips.
  test('terra reads the summary GeoTIFF: EPSG:4326, one layer, the provinces\' cells', async () => {
    if (process.env.DL_PANELS) return;
    const tifZ = online.get('Summaries/tif')!, jsonZ = online.get('Summaries/json')!;
    const dir = mkdtempSync(join(tmpdir(), 'indapi-dl-'));
    try {
      const b = 'getLayer-ELEVATION-ADM1_NAME_ALT-KEN';
      for (const ext of ['tif', 'tfw', 'tif.aux.xml']) writeFileSync(join(dir, `${b}.${ext}`), await tifZ.file(`${b}.${ext}`)!.async('uint8array'));
      const out = execFileSync('Rscript', ['-e', `suppressMessages(library(terra)); r <- rast("${join(dir, `${b}.tif`)}"); cat(nlyr(r), crs(r, describe = TRUE)$code, global(r, "notNA")[1, 1])`], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
      const [nl, code, notNa] = out.trim().split(/\s+/);
      const gj = JSON.parse(await jsonZ.file('getLayer-ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.geojson')!.async('string'));
      const cells = gj.features.filter((f: any) => typeof f.properties.ELEVATION === 'number').reduce((s: number, f: any) => s + f.properties.CELLS, 0);
      expect([nl, code, Number(notNa)]).toEqual(['1', '4326', cells]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('offline, after the service worker holds the bundle: the same matrix', async () => {
    await waitSynced(page);
    await ctx.setOffline(true);
    try {
      await matrix('offline');
    } finally {
      await ctx.setOffline(false);
    }
    expect(errors).toEqual([]);
  }, 600_000);
});
