/**
 * Every download format from the app's Download panel, as a person saves them in Chromium:
 * Kenya by ADM1_NAME_ALT with ELEVATION and ELEV_ZONE. Each ZIP is opened with JSZip and its
 * name, file list and the data files' first bytes are checked; the ZIPs are kept in
 * test-results/downloads/ to be opened by hand. R (`Rscript` with haven
 * and terra, installed by .ci/run) reads the .dta and the .tif back and compares them with the CSV.
 * A fresh browser context per format: Chromium blocks repeated automatic downloads.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import JSZip from 'jszip';
import Papa from 'papaparse';
import type { Browser } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { launch } from './app-helpers';

const VARS = ['ELEVATION', 'ELEV_ZONE'];
const BY = 'ADM1_NAME_ALT';
const ISO = 'KEN';
const HASH = `#v=ELEVATION&vars=${VARS.join(',')}&iso=${ISO}&by=${BY}&panel=download`;
/** Data file base: `<method>-<vars>-<by>-<ISO3>`. */
const BASE = `getLayer-${VARS.join('-')}-${BY}-${ISO}`;
const PKG = ['datapackage.json', 'meta.csv', 'README.md', 'DESCRIPTION', 'terms.html'];
/** Side files of raster packages (no terms.html: the README carries the licences). */
const RASTER_PKG = ['datapackage.json', 'meta.csv', 'README.md', 'DESCRIPTION'];
const OUT = 'test-results/downloads';

let srv: Started;
let browser: Browser;
/** Downloaded ZIPs by format. */
const zips = new Map<string, { name: string; zip: JSZip; bytes: Buffer }>();

beforeAll(async () => {
  srv = await startServer();
  browser = await launch();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
});
afterAll(async () => { await browser?.close(); await srv?.stop(); });

/** Opens the app on the download selection in a fresh context, builds `format`, returns the saved ZIP. */
async function download(format: string): Promise<{ name: string; zip: JSZip; bytes: Buffer }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  try {
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(srv.url + HASH);
    const panel = page.locator('#panel-download');
    await expect.poll(() => panel.textContent(), { timeout: 30_000 }).toContain('ELEVATION, ELEV_ZONE for KEN');
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ timeout: 30_000 }); // catalog loaded, URL codes validated
    await panel.locator(`input[name="dl-format"][value="${format}"]`).check();
    const [dl] = await Promise.all([
      page.waitForEvent('download', { timeout: 150_000 }),
      panel.getByRole('button', { name: 'Build and save ZIP' }).click(),
    ]);
    const bytes = readFileSync((await dl.path())!);
    const name = dl.suggestedFilename();
    writeFileSync(join(OUT, name), bytes);
    await page.locator('[data-testid="download-result"]').waitFor({ timeout: 10_000 });
    expect(await panel.locator('[role="alert"]').count()).toBe(0);
    expect(errors).toEqual([]);
    const out = { name, zip: await JSZip.loadAsync(bytes), bytes };
    zips.set(format, out);
    return out;
  } finally {
    await ctx.close();
  }
}

const list = (z: JSZip) => Object.keys(z.files).filter((n) => !z.files[n].dir).sort();
const head = async (z: JSZip, n: string, k: number) => Buffer.from((await z.file(n)!.async('uint8array')).subarray(0, k));
const parseCsv = (text: string) => Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });

describe('downloads from the app: Kenya by ADM1_NAME_ALT, ELEVATION and ELEV_ZONE', () => {
  test('csv: the table with the data package files', async () => {
    const { name, zip } = await download('csv');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.csv.zip`);
    expect(list(zip)).toEqual([`${BASE}.csv`, ...PKG].sort());
    const csv = parseCsv(await zip.file(`${BASE}.csv`)!.async('string'));
    expect(csv.meta.fields).toEqual(expect.arrayContaining(['ISO3', BY, 'ELEVATION', 'ELEV_ZONE']));
    expect(csv.data.length).toBeGreaterThan(5);
    expect(csv.data.every((r) => r.ISO3 === ISO)).toBe(true);
    const pkg = JSON.parse(await zip.file('datapackage.json')!.async('string'));
    expect(JSON.stringify(pkg)).toContain(`${BASE}.csv`);
    const readme = await zip.file('README.md')!.async('string');
    expect(readme).toContain(`${BASE}.csv`);
    // the reproduce commands name the page's origin (answered by the service worker) and send format in the JSON body
    expect(readme).toContain(`BASE='${srv.url}ocpu'`);
    expect(readme).toMatch(/curl -s -D headers\.txt "\$BASE\/library\/indapi3\/R\/indapi" -H 'Content-Type: application\/json' -d '\{[^']*"format":"csv"\}'/);
  }, 180_000);

  test('dta: Stata 118 with the data package files', async () => {
    const { name, zip } = await download('dta');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.dta.zip`);
    expect(list(zip)).toEqual([`${BASE}.dta`, ...PKG].sort());
    expect((await head(zip, `${BASE}.dta`, 64)).toString('latin1')).toMatch(/^<stata_dta><header><release>118<\/release>/);
  }, 180_000);

  test('rds: an .rds (gzip, XDR serialisation) with the data package files', async () => {
    const { name, zip } = await download('rds');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.rds.zip`);
    expect(list(zip)).toEqual([`${BASE}.rds`, ...PKG].sort());
    const raw = Buffer.from(await zip.file(`${BASE}.rds`)!.async('uint8array'));
    expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(raw).subarray(0, 2).toString('latin1')).toBe('X\n');
  }, 180_000);

  test('rda: an RData .rda (gzip, RDX3 + XDR serialisation) that load() opens, with the data package files', async () => {
    const { name, zip } = await download('rda');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.rda.zip`); // the ZIP is named after the requested format
    expect(list(zip)).toEqual([`${BASE}.rda`, ...PKG].sort());
    const raw = Buffer.from(await zip.file(`${BASE}.rda`)!.async('uint8array'));
    expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(raw).subarray(0, 7).toString('latin1')).toBe('RDX3\nX\n');
    const dir = mkdtempSync(join(tmpdir(), 'indapi-rda-'));
    try {
      writeFileSync(join(dir, 'x.rda'), raw);
      const out = execFileSync('Rscript', ['-e', `e <- new.env(); n <- load("${join(dir, 'x.rda')}", envir = e); d <- get(n, e); cat(n, class(d), nrow(d) > 0, is.factor(d$ELEV_ZONE), sep = "|")`], { encoding: 'utf8' });
      expect(out).toBe(`${BASE.replace(/-/g, '.')}|data.frame|TRUE|TRUE`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  test('json: GeoJSON with by: one polygon per province carrying its summary, with the data package files', async () => {
    const { name, zip } = await download('json');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.json.zip`);
    expect(list(zip)).toEqual([`${BASE}.geojson`, ...PKG].sort());
    const gj = JSON.parse(await zip.file(`${BASE}.geojson`)!.async('string'));
    expect(gj.type).toBe('FeatureCollection');
    expect(gj.description).toMatch(/per group/);
    const units = gj.features.map((f: any) => f.properties[BY]).filter((u: unknown) => u !== null);
    expect(units.length).toBeGreaterThan(5);
    expect(new Set(units).size).toBe(units.length); // each province once
    for (const f of gj.features) {
      expect(['Polygon', 'MultiPolygon']).toContain(f.geometry.type);
      for (const k of ['ISO3', BY, 'CELLS', 'ELEVATION', 'ELEV_ZONE']) expect(f.properties).toHaveProperty(k);
    }
  }, 180_000);

  test('tif: one GeoTIFF with .tfw and .tif.aux.xml per variable', async () => {
    const { name, zip } = await download('tif');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.tif.zip`);
    const per = VARS.flatMap((v) => [`getLayer-${v}-${BY}-${ISO}.tif`, `getLayer-${v}-${BY}-${ISO}.tfw`, `getLayer-${v}-${BY}-${ISO}.tif.aux.xml`]);
    expect(list(zip)).toEqual([...per, ...RASTER_PKG].sort());
    for (const v of VARS) {
      const b = `getLayer-${v}-${BY}-${ISO}`;
      expect([...(await head(zip, `${b}.tif`, 4))]).toEqual([0x49, 0x49, 0x2a, 0x00]); // II*\0
      expect((await zip.file(`${b}.tfw`)!.async('string')).trim().split(/\r?\n/)).toHaveLength(6);
      expect(await zip.file(`${b}.tif.aux.xml`)!.async('string')).toContain('<PAMDataset>');
    }
  }, 180_000);

  test('asc: one ESRI ASCII grid with .prj and .aux.xml per variable', async () => {
    const { name, zip } = await download('asc');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.asc.zip`);
    const per = VARS.flatMap((v) => [`getLayer-${v}-${BY}-${ISO}.asc`, `getLayer-${v}-${BY}-${ISO}.prj`, `getLayer-${v}-${BY}-${ISO}.asc.aux.xml`]);
    expect(list(zip)).toEqual([...per, ...RASTER_PKG].sort());
    const b = `getLayer-ELEVATION-${BY}-${ISO}`;
    expect((await head(zip, `${b}.asc`, 6)).toString('latin1').toLowerCase()).toBe('ncols ');
    expect(await zip.file(`${b}.prj`)!.async('string')).toContain('GCS_WGS_1984');
  }, 180_000);

  test('grd: one R raster .grd header and .gri data with all variables as bands', async () => {
    const { name, zip } = await download('grd');
    expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.grd.zip`);
    expect(list(zip)).toEqual([`${BASE}.grd`, `${BASE}.gri`, ...RASTER_PKG].sort());
    const grd = await zip.file(`${BASE}.grd`)!.async('string');
    expect(grd).toContain('[georeference]');
    expect(grd).toMatch(/nbands\s*=\s*2/);
    const ncols = Number(/ncols\s*=\s*(\d+)/.exec(grd)![1]), nrows = Number(/nrows\s*=\s*(\d+)/.exec(grd)![1]);
    expect(grd).toContain('layername=ELEVATION:ELEV_ZONE');
    const bytesPer = Number(/datatype\s*=\s*FLT(\d)S/.exec(grd)?.[1] ?? 4);
    expect((await zip.file(`${BASE}.gri`)!.async('uint8array')).byteLength).toBe(ncols * nrows * 2 * bytesPer);
  }, 180_000);

  for (const f of ['plot', 'hist']) {
    test(`${f}: a PNG and an SVG per variable`, async () => {
      const { name, zip } = await download(f);
      expect(name).toBe(`${VARS.join('-')}-${BY}-${ISO}.${f}.zip`);
      const per = VARS.flatMap((v) => [`getLayer-${v}-${BY}-${ISO}-${f}.png`, `getLayer-${v}-${BY}-${ISO}-${f}.svg`]);
      expect(list(zip)).toEqual(per.sort());
      for (const v of VARS) {
        const b = `getLayer-${v}-${BY}-${ISO}-${f}`;
        expect([...(await head(zip, `${b}.png`, 8))]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        expect(await zip.file(`${b}.svg`)!.async('string')).toMatch(/<svg[\s>]/);
      }
    }, 180_000);
  }

  // R with haven and terra is required (installed by .ci/run); a missing reader fails, never skips.
  test('R reads the files: haven gets the CSV rows from the .dta, terra the GeoJSON units from the .tif', async () => {
    const csvZ = zips.get('csv'), dtaZ = zips.get('dta'), tifZ = zips.get('tif'), jsonZ = zips.get('json');
    expect(csvZ && dtaZ && tifZ && jsonZ, 'the csv, dta, tif and json downloads ran').toBeTruthy();
    const dir = mkdtempSync(join(tmpdir(), 'indapi-dl-'));
    try {
      const csv = parseCsv(await csvZ!.zip.file(`${BASE}.csv`)!.async('string')).data;
      const adm1 = csv.filter((r) => r[BY] !== '' && r[BY] !== undefined);
      const dta = join(dir, `${BASE}.dta`), tif = join(dir, `getLayer-ELEVATION-${BY}-${ISO}.tif`);
      writeFileSync(dta, await dtaZ!.zip.file(`${BASE}.dta`)!.async('uint8array'));
      for (const ext of ['tif', 'tfw', 'tif.aux.xml']) writeFileSync(join(dir, `getLayer-ELEVATION-${BY}-${ISO}.${ext}`), await tifZ!.zip.file(`getLayer-ELEVATION-${BY}-${ISO}.${ext}`)!.async('uint8array'));
      const script = [
        'suppressMessages({library(haven); library(terra)})',
        'a <- commandArgs(TRUE)',
        'd <- read_dta(a[1])',
        'u <- as.character(as_factor(d[["ADM1_NAME_ALT"]]))',
        'z <- as.character(as_factor(d[["ELEV_ZONE"]]))',
        'cat("dta_zones", paste(ifelse(is.na(z), "", z), collapse = "|"), "\\n")',
        'cat("dta_rows", nrow(d), "\\n")',
        'cat("dta_adm1", sum(!is.na(u) & u != ""), "\\n")',
        'cat("dta_units", paste(sort(u[!is.na(u) & u != ""]), collapse = "|"), "\\n")',
        'cat("dta_elev", sprintf("%.6f", sum(d[["ELEVATION"]], na.rm = TRUE)), "\\n")',
        'r <- rast(a[2])',
        'cat("tif_dim", ncol(r), nrow(r), nlyr(r), "\\n")',
        'cat("tif_notna", global(r, "notNA")[1, 1], "\\n")',
        'cat("tif_sum", sprintf("%.3f", global(r, "sum", na.rm = TRUE)[1, 1]), "\\n")',
        'cat("tif_crs", crs(r, describe = TRUE)$code, "\\n")',
      ].join('\n');
      writeFileSync(join(dir, 'check.R'), script);
      const out = execFileSync('Rscript', [join(dir, 'check.R'), dta, tif], { encoding: 'utf8', timeout: 60_000 });
      const got = Object.fromEntries(out.trim().split('\n').map((l) => { const [k, ...v] = l.trim().split(/\s+/); return [k, v.join(' ')]; }));
      // haven: the same rows as the CSV, the same Kenya ADM1 units
      expect(Number(got.dta_rows)).toBe(csv.length);
      expect(Number(got.dta_adm1)).toBe(adm1.length);
      expect(adm1.length).toBeGreaterThan(5);
      expect(got.dta_units.split('|').sort()).toEqual(adm1.map((r) => r[BY]).sort());
      expect(got.dta_zones).toBe(csv.map((r) => r.ELEV_ZONE).join('|')); // value labels of the class column
      expect(Number(got.dta_elev)).toBeCloseTo(csv.reduce((s, r) => s + (r.ELEVATION === '' ? 0 : Number(r.ELEVATION)), 0), 0);
      // terra: one layer, EPSG:4326; the zonal tif holds each province's value on its cells: as many
      // cells with values as the GeoJSON polygons with a value count, and the same values
      const gj = JSON.parse(await jsonZ!.zip.file(`${BASE}.geojson`)!.async('string'));
      const withElev = gj.features.filter((f: any) => typeof f.properties.ELEVATION === 'number') as Array<{ properties: { ELEVATION: number; CELLS: number } }>;
      expect(got.tif_dim.split(' ')[2]).toBe('1');
      expect(got.tif_crs).toBe('4326');
      expect(Number(got.tif_notna)).toBe(withElev.reduce((s, f) => s + f.properties.CELLS, 0));
      expect(Number(got.tif_sum) / withElev.reduce((s, f) => s + f.properties.ELEVATION * f.properties.CELLS, 0)).toBeCloseTo(1, 6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
