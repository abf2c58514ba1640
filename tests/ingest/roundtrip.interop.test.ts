/**
 * Round trip (issue 9 item 8): the embedded bundle (public/data) exported as a CELL5M-style
 * table (`npm run export`) and ingested again (`ingestTable`) answers the same summaries:
 * getLayer for every indicator by country and by ADM1, by class and interval domains, over a
 * WKT polygon; category and describe equal.
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

const same = async (args: Parameters<IndapiEngine['getLayer']>[0]) => {
  const [x, y] = await Promise.all([a.getLayer(args), b.getLayer(args)]);
  expect(y).toEqual(x);
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
    expect(y.rows).toEqual(x.rows);
    expect(x.rows.length).toBeGreaterThan(0);
  }, 120_000);

  it('category and describe are the same (describe adds the original catalog fields the export wrote)', async () => {
    expect(await b.category({})).toEqual(await a.category({}));
    const [da, db] = await Promise.all([a.describe({}), b.describe({})]);
    expect(db.map((r) => r.Code)).toEqual(da.map((r) => r.Code));
    da.forEach((ra, i) => {
      const rb = db[i];
      expect(Object.fromEntries(Object.keys(ra).map((k) => [k, rb[k]]))).toEqual(ra);
      for (const k of Object.keys(rb)) if (!(k in ra)) expect(ORIGINAL_VI_FIELDS as readonly string[]).toContain(k);
    });
  });
});
