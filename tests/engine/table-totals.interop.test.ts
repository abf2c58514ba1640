/**
 * Totals of the table builder (src/ui/pivot.ts) on the engine: the totals over every
 * selected country ("All selected") are the engine's own aggregates over the union of their
 * cells, for every formula shape, and they equal an independent computation in R
 * (tests/engine/table-totals.R: terra reads the COGs, data.table evaluates the catalog
 * formulas) on the real bundle (ELEVATION: weighted.mean; PN14_LIFEEXP: a population-weighted
 * ratio of sums; PN14_POP: a sum) and on the fixture bundle (made-up values; ELEVATION is a
 * plain mean there, SLOPE a median, TRI a weighted mean, AREA_LAND a sum).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { ALL_SELECTED, fetchTableData, NA_KEY, pivotGrid, tablePivot, type TableArgs } from '../../src/ui/pivot';

const FIXTURE = join(__dirname, 'fixtures/bundle');
const REAL = join(__dirname, '../../public/data');
const eng = createNodeEngine(FIXTURE);
const real = createNodeEngine(REAL);

describe("the pivot's totals on the engine (fixture bundle)", () => {
  const eng = createNodeEngine(join(__dirname, '../../tests/engine/fixtures/bundle'));
  const get = async (a: object) => (await eng.getLayerTable(a as never)).rows;

  // CELL5M ids of the cells of some codes (the per-cell query), an independent route to their union
  const idsOf = async (iso3: string[]) => (await get({ var: ['ELEVATION'], iso3, collapse: false })).map((r) => r.CELL5M as number);

  test('pooled: the cells of KEN and UGA in one pool, as many as their overall rows count, as the pool of their ids', async () => {
    const per = await get({ var: ['ELEVATION'], iso3: ['KEN', 'UGA'], stats: ['count'] });
    const pooled = await eng.getLayerTable({ var: ['ELEVATION'], iso3: ['KEN', 'UGA'], pooled: true, stats: ['count'] });
    expect(pooled.rows[0].ELEVATION_count).toBe((per[0].ELEVATION_count as number) + (per[1].ELEVATION_count as number));
    expect(pooled.selection).toEqual({ iso3: ['KEN', 'UGA'], pooled: true, ids: false, wkt: false });
    const ids = await idsOf(['KEN', 'UGA']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pooled.rows).toEqual(await get({ var: ['ELEVATION'], ids, stats: ['count'] }));
  });

  for (const value of ['ELEVATION', 'TRI', 'AREA_LAND']) {
    test(`${value}: the "All selected" totals of KEN, TZA, UGA are the engine's pool of SSA (= their union), not a mean or sum of countries`, async () => {
      const a: TableArgs = { value, iso3: ['KEN', 'TZA', 'UGA'], row: 'ADM1_NAME_ALT', col: 'ELEV_ZONE' };
      const p = tablePivot(a, await fetchTableData(eng, a));
      expect(p.blocks.map((b) => b.iso3)).toEqual(['KEN', 'TZA', 'UGA', '']);
      const u = p.blocks[3];
      expect(u.all).toBe(true);
      expect(u.rows).toEqual([]); // ADM1 rows repeat the countries' blocks
      const ssa = await get({ var: [value], iso3: ['SSA'], by: ['ELEV_ZONE'] });
      expect(u.total).toBe(ssa[0][value]);
      const zones = ssa.slice(1).map((r) => [r.ELEV_ZONE === null ? NA_KEY : r.ELEV_ZONE, r[value] ?? null]);
      expect(p.colKeys.map((k, i) => [k, u.colTotals[i]]).filter(([k]) => zones.some(([z]) => z === k))).toEqual(zones);
      // the countries' blocks are the countries' own totals
      for (const b of p.blocks.slice(0, 3)) expect(b.total).toBe((await get({ var: [value], iso3: [b.iso3] }))[0][value]);
      if (value !== 'AREA_LAND') {
        const means = p.blocks.slice(0, 3).map((b) => b.total!);
        expect(u.total).not.toBeCloseTo(means.reduce((s, x) => s + x, 0) / 3, 3);
      } else expect(u.total).toBeCloseTo(p.blocks.slice(0, 3).reduce((s, b) => s + b.total!, 0), 1);
    });
  }

  test('ELEV_ZONE x ISO3 over KEN and UGA: one block, an "All selected" column over both, per-country column totals', async () => {
    const a: TableArgs = { value: 'ELEVATION', iso3: ['KEN', 'UGA'], row: 'ELEV_ZONE', col: 'ISO3' };
    const p = tablePivot(a, await fetchTableData(eng, a));
    expect(p.totalCol).toBe(ALL_SELECTED);
    expect(p.blocks).toHaveLength(1);
    expect(p.colKeys).toEqual(['KEN', 'UGA']);
    const b = p.blocks[0];
    const per = await get({ var: ['ELEVATION'], iso3: ['KEN', 'UGA'] });
    expect(b.colTotals).toEqual([per[0].ELEVATION, per[1].ELEVATION]);
    const union = await get({ var: ['ELEVATION'], ids: await idsOf(['KEN', 'UGA']), by: ['ELEV_ZONE'] });
    expect(b.total).toBe(union[0].ELEVATION);
    expect(b.rows.map((r) => r.total)).toEqual(union.slice(1).map((r) => r.ELEVATION ?? null));
    // the other way round: the totals row is "All selected"
    const q = tablePivot({ ...a, row: 'ISO3', col: 'ELEV_ZONE' }, await fetchTableData(eng, { ...a, row: 'ISO3', col: 'ELEV_ZONE' }));
    expect(q.blocks[0].totalLabel).toBe(ALL_SELECTED);
    expect(q.blocks[0].total).toBe(b.total);
    expect(pivotGrid(q, { row: 'ISO3' }).at(-1)![0]).toBe(ALL_SELECTED);
  });
});

interface RGroup { zone?: string; iso3?: string; v: number | null }
interface RVar { formula: string; dec: number; cells: RGroup[]; zones: RGroup[]; countries: RGroup[]; all: number | null }
const JOBS = [
  { dir: REAL, sel: ['KEN', 'ETH'], vars: ['ELEVATION', 'PN14_LIFEEXP', 'PN14_POP'] },
  { dir: FIXTURE, sel: ['KEN', 'UGA'], vars: ['ELEVATION', 'SLOPE', 'TRI', 'AREA_LAND'] },
];
let R: Array<Record<string, RVar>> = [];
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'table-totals-'));
  writeFileSync(join(dir, 'input.json'), JSON.stringify(JOBS));
  R = JSON.parse(execFileSync('Rscript', [join(__dirname, 'table-totals.R'), join(dir, 'input.json')], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}, 240_000);
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

/** Equal as rounded to `dec` decimals by R round() and the engine's roundR (one unit of the last decimal apart at most, for ties). */
const same = (a: number | null | undefined, b: number | null | undefined, dec: number) =>
  (a === null || a === undefined) ? b === null || b === undefined : b !== null && b !== undefined && Math.abs(a - b) <= 10 ** -dec * 1.0001;

describe('table totals against R', () => {
  JOBS.forEach((job, j) => {
    for (const value of job.vars) {
      test(`${j ? 'fixture' : 'real'} bundle, ${value} over ${job.sel.join(' + ')}: ELEV_ZONE x ISO3 cells, the "All selected" column, the countries' totals and the grand total are R's`, async () => {
        const r = R[j][value];
        expect(r.formula.length).toBeGreaterThan(0);
        const engine = j ? eng : real;
        const a: TableArgs = { value, iso3: job.sel, row: 'ELEV_ZONE', col: 'ISO3' };
        const p = tablePivot(a, await fetchTableData(engine, a));
        expect(p.totalCol).toBe(ALL_SELECTED);
        const b = p.blocks[0];
        expect(p.blocks).toHaveLength(1);
        expect([...p.colKeys].sort()).toEqual([...job.sel].sort());
        const bad: string[] = [];
        const check = (what: string, got: number | null, want: number | null | undefined) => { if (!same(got, want, r.dec)) bad.push(`${what}: pivot ${got}, R ${want}`); };
        expect(b.rows.map((x) => x.key).sort()).toEqual(r.zones.map((z) => z.zone).sort());
        for (const row of b.rows) {
          check(`${row.key} x All selected`, row.total, r.zones.find((z) => z.zone === row.key)?.v);
          p.colKeys.forEach((iso, i) => check(`${row.key} x ${iso}`, row.values[i], r.cells.find((c) => c.zone === row.key && c.iso3 === iso)?.v ?? null));
        }
        p.colKeys.forEach((iso, i) => check(`${iso} total`, b.colTotals[i], r.countries.find((c) => c.iso3 === iso)?.v));
        check('grand total', b.total, r.all);
        expect(bad).toEqual([]);
        // the per-country layout (rows by first-level unit): each country's block total and the
        // "All selected" block's zone totals and total are R's too
        const q: TableArgs = { value, iso3: job.sel, row: 'ADM1_NAME_ALT', col: 'ELEV_ZONE' };
        const pq = tablePivot(q, await fetchTableData(engine, q));
        for (const blk of pq.blocks.filter((x) => !x.all)) check(`${blk.iso3} block total`, blk.total, r.countries.find((c) => c.iso3 === blk.iso3)?.v);
        const u = pq.blocks.find((x) => x.all)!;
        check('All selected block total', u.total, r.all);
        pq.colKeys.forEach((z, i) => check(`All selected ${z}`, u.colTotals[i], r.zones.find((x) => x.zone === z)?.v));
        expect(bad).toEqual([]);
        // the CSV grid carries the totals, labelled
        const g = pivotGrid(pq, { row: 'ADM1_NAME_ALT', country: 'ISO3' });
        expect(g.at(-1)!.slice(0, 2)).toEqual([ALL_SELECTED, `${ALL_SELECTED} total`]);
        expect(g.at(-1)!.at(-1)).toBe(u.total);
      }, 120_000);
    }
  });

  test('missing stays missing, a sum stays a number (R: sum over cells without values is 0): cells without an elevation zone', async () => {
    const r = R[0];
    for (const [value, missing] of [['ELEVATION', true], ['PN14_POP', false]] as const) {
      const a: TableArgs = { value, iso3: ['KEN', 'ETH'], row: 'ELEV_ZONE', col: 'ISO3' };
      const na = tablePivot(a, await fetchTableData(real, a)).blocks[0].rows.find((x) => x.key === NA_KEY)!;
      expect(na.total === null).toBe(missing);
      expect(na.total).toBe(r[value].zones.find((z) => z.zone === NA_KEY)!.v);
    }
  }, 60_000);
});
