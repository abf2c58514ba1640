/**
 * Round trip (issue 9 item 8): the embedded bundle (public/data) exported as a CELL5M-style
 * table (`npm run export`) and ingested again (`ingestTable`) answers the same summaries:
 * getLayer for every indicator by country and by ADM1, by class and interval domains, over a
 * WKT polygon; category and describe equal.
 *
 * Continuous values: the export writes each Float32 sample of the embedded bundle as the shortest
 * decimal that reads back to it (`1606.3` for 1606.300048828125), and the ingest stores that
 * decimal exactly (issue 23 item 2: the double R reads from the text, not the Float32 it came
 * from), so a summary may differ by one unit in its last decimal, or a large sum by the Float32
 * precision (2^-23 relative); rows, keys, classes and labels are the same, and such differences rare.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import type { IndapiEngine } from '../../src/core/engine';
import { exportBundle, type ExportResult } from '../../src/node/export/export';
import { ORIGINAL_VI_FIELDS } from '../../src/node/export/format';
import { ingestTable } from '../../src/node/ingest';

let dir: string;
let a: IndapiEngine, b: IndapiEngine;
let exported: ExportResult;
let codes: string[];
let countries: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-'));
  exported = await exportBundle({ data: 'public/data', out: join(dir, 'table.csv'), catalogOut: join(dir, 'vi.csv') });
  const res = await ingestTable({ table: join(dir, 'table.csv'), catalog: join(dir, 'vi.csv'), out: join(dir, 'bundle') });
  if (!res.ok) throw new Error(`ingest failed: ${res.findings.filter((f) => f.severity === 'fatal').map((f) => f.message).join('; ')}`);
  a = createNodeEngine('public/data');
  b = createNodeEngine(join(dir, 'bundle'));
  const cat = await a.loadCatalog();
  codes = cat.records.map((r) => r.varCode);
  countries = cat.iso.filter((i) => i.type === 'country' && i.cells > 0).map((i) => i.code);
}, 240_000);

afterAll(async () => {
  await a?.store.close();
  await b?.store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Numbers differing by one unit in their last decimal, by test (see the module comment). */
let drift = 0, compared = 0;
const decimals = (x: number) => (Number.isInteger(x) ? 0 : String(x).split('.')[1]?.length ?? 0);
function expectSame(y: unknown, x: unknown, where: string): void {
  if (typeof x === 'number' && typeof y === 'number') {
    compared++;
    if (x === y) return;
    drift++;
    // one unit in the last decimal, or the Float32 precision (2^-23 relative) of a large sum
    const tol = Math.max(10 ** -Math.max(decimals(x), decimals(y)) * (1 + 1e-9), 2 ** -23 * Math.abs(x));
    expect(Math.abs(x - y), `${where}: ${y} vs ${x}`).toBeLessThanOrEqual(tol);
  } else if (x && typeof x === 'object' && y && typeof y === 'object') {
    expect(Object.keys(y).sort(), where).toEqual(Object.keys(x).sort());
    for (const k of Object.keys(x)) expectSame((y as Record<string, unknown>)[k], (x as Record<string, unknown>)[k], `${where}.${k}`);
  } else expect(y, where).toEqual(x);
}
const same = async (args: Parameters<IndapiEngine['getLayer']>[0]) => {
  const [x, y] = await Promise.all([a.getLayer(args), b.getLayer(args)]);
  expectSame(y, x, JSON.stringify(args).slice(0, 80));
  expect(drift, `${drift} of ${compared} numbers differ in the last decimal`).toBeLessThan(compared / 50);
  return x as Array<Record<string, unknown>>;
};

describe('export -> ingest round trip of the embedded bundle', () => {
  it('exports every land cell and every indicator', () => {
    expect(exported.rows).toBe(294_505);
    expect(exported.columns.slice(0, 4)).toEqual(['CELL5M', 'ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT']);
    for (const c of codes) expect(exported.columns).toContain(c);
  });

  it('R data.table reads the exported table: cells, names and sums as the engine gives them', async () => {
    const r = execFileSync('Rscript', ['-e', `suppressMessages(library(data.table)); d <- fread("${join(dir, 'table.csv')}", encoding = "UTF-8", na.strings = "");
      cat(nrow(d), ncol(d), sprintf("%.2f", sum(d[ISO3 == "KEN", AREA_TOTAL])), sum(is.na(d$ELEVATION)), "\n"); cat(unique(d[ISO3 == "CIV", ADM0_NAME]), "\n")`], { encoding: 'utf8' });
    const [line1, line2] = r.trim().split('\n');
    const [rows, cols, kenArea, naElev] = line1.trim().split(' ');
    expect(Number(rows)).toBe(exported.rows);
    expect(Number(cols)).toBe(exported.columns.length);
    const ken = (await a.getLayer({ var: ['AREA_TOTAL'], iso3: ['KEN'] })) as Array<Record<string, number>>;
    expect(Number(kenArea)).toBeCloseTo(ken[0].AREA_TOTAL, 0);
    expect(Number(naElev)).toBe(188); // the cells without ETOPO5 land elevation (vi.csv)
    expect(line2.trim()).toBe((await a.loadCatalog()).isoEntry('CIV')!.name);
  });

  it('every indicator by country is the same', async () => {
    const rows = await same({ var: codes, iso3: countries });
    expect(rows.length).toBeGreaterThanOrEqual(countries.length);
  }, 120_000);

  it('every indicator by ADM1 is the same (region pooled, and one country)', async () => {
    const rows = await same({ var: codes, by: ['ADM1_NAME_ALT'] });
    expect(rows.length).toBeGreaterThan(700);
    await same({ var: codes, iso3: ['BEN', 'CMR'], by: ['ADM1_CODE_ALT'] });
  }, 120_000);

  it('class and interval domains and a WKT polygon give the same summaries', async () => {
    await same({ var: ['ELEVATION', 'PN14_POP', 'AREA_LAND', 'DIST_COAST', 'ELEV_ZONE'], iso3: ['KEN', 'ETH'], by: ['ELEV_ZONE'] });
    await same({ var: ['SLOPE', 'PLACES_POP', 'INCOME_GRP'], by: ['SUBREGION', 'ECONOMY'] });
    await same({ var: ['AREA_TOTAL', 'LAND_SHARE'], iso3: ['TZA'], by: ['ELEVATION'] });
    await same({ var: ['PN14_POP'], iso3: ['MOZ'], by: { DIST_COAST: [0, 10, 50, 200, 2000] } });
    const wkt = 'POLYGON ((36.5 -1.5, 38.02 -1.5, 38.02 0.3, 36.5 0.3, 36.5 -1.5))';
    const args = { var: ['ELEVATION', 'PN14_POP', 'ELEV_ZONE', 'DIST_PLACE20K'], wkt };
    const [x, y] = await Promise.all([a.getLayerWKT(args), b.getLayerWKT(args)]);
    expectSame(y.rows, x.rows, 'wkt');
    expect(x.rows.length).toBeGreaterThan(0);
  }, 120_000);

  it('category and describe are the same but for the national series (describe adds the original catalog fields the export wrote)', async () => {
    // The export writes the original's CELL5M table (one row per cell), which has no place for
    // national series (one value per country and year, series/national.csv): the ingested bundle
    // has none, and the embedded bundle's listing differs by exactly those records.
    const national = new Set((await a.loadCatalog()).seriesRecords.map((r) => r.varCode));
    expect(national.size).toBeGreaterThan(0);
    expect((await b.loadCatalog()).seriesRecords).toEqual([]);
    const ca = (await a.category({})) as unknown as Array<Record<string, unknown>>;
    const cb = (await b.category({})) as unknown as Array<Record<string, unknown>>;
    const codeOf = (r: Record<string, unknown>) => String(r.code);
    expect(ca.filter((r) => national.has(codeOf(r))).length).toBe(national.size);
    expect(cb).toEqual(ca.filter((r) => !national.has(codeOf(r))));
    const [daAll, db] = await Promise.all([a.describe({}), b.describe({})]);
    const da = daAll.filter((r) => !national.has(String(r.Code)));
    expect(db.map((r) => r.Code)).toEqual(da.map((r) => r.Code));
    da.forEach((ra, i) => {
      const rb = db[i];
      expect(Object.fromEntries(Object.keys(ra).map((k) => [k, rb[k]]))).toEqual(ra);
      for (const k of Object.keys(rb)) if (!(k in ra)) expect(ORIGINAL_VI_FIELDS as readonly string[]).toContain(k);
    });
  });
});
