/**
 * Issue 12: answers users can check in R. Each block compares the engine with an independent
 * computation in R (tests/engine/r-differences.R: data.table, terra) on the fixture bundles
 * (made-up values) and the real bundle:
 * - interval labels as R `cut()` prints them, for many break sets and every `dig.lab` 1..12;
 * - R's NA group (cells outside every interval): a row with the key null, rows adding up;
 * - several `iso3` codes with regions: one row per code, regions labelled with code and name;
 * - a code both `var` and `by`: the key `<CODE>_by`, the overall row marked `total: 1`;
 * - a thin WKT sliver without `exact`: coverage fractions, never whole touched cells;
 * - `similar` on unrounded values, units with a missing indicator left out and counted;
 * - second-level units (ADM2): whole keys (country, ADM1, ADM2), sorting, similar by = 2, CSV.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { cutLabels, roundR } from '../../src/core/engine';
import { genFile } from '../../src/core/formats';
import { isIndapiError } from '../../src/core/errors';
import type { Row } from '../../src/core/types';

const FIXTURE = join(__dirname, 'fixtures/bundle');
const ADM2 = join(__dirname, 'fixtures/bundle-adm2');
const REAL = join(__dirname, '../../public/data');
const fixture = createNodeEngine(FIXTURE);
const adm2 = createNodeEngine(ADM2);
const real = createNodeEngine(REAL);

/** Break sets: hand-picked edge cases and seeded random ones over many magnitudes. */
function breakSets(): number[][] {
  const sets: number[][] = [
    [0, 500, 1000], [0, 500, 1500, 2500], [0.5, 1.125, 2], [0, 1500, 25000, 1e6], [-500, 0.123456, 2.5, 1e6],
    [1000, 1001], [1000, 1000.5, 1001], [0, 0.0001, 0.00012], [1e-5, 2e-5, 2.0001e-5], [123456789, 123456790],
    [-1e6, -999999.5, 0], [0, 1 / 3, 2 / 3, 1], [99.95, 99.96, 100], [0.1, 0.2, 0.30000000000000004], [0, 2000.5, 5000],
    [-0.5, 0, 0.5], [1e15, 1e16], [0.000123456, 0.000123457], [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000],
  ];
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let k = 0; k < 60; k++) {
    const mag = 10 ** Math.floor(rnd() * 14 - 6);
    const n = 2 + Math.floor(rnd() * 5);
    const decimals = Math.floor(rnd() * 6);
    const xs = new Set<number>();
    while (xs.size < n) xs.add(Number(((rnd() * 20 - 5) * mag).toFixed(Math.max(0, decimals - Math.round(Math.log10(mag))))));
    sets.push([...xs].sort((a, b) => a - b));
  }
  return sets.filter((s) => s.every((b, i) => i === 0 || b > s[i - 1]) && s.length > 1);
}

let R: any;
let dir = '';
const BREAKS = breakSets();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rdiff-'));
  // the CSV download by ADM2, as the contract writes it
  const args = { var: ['AREA_LAND', 'ELEVATION'], by: ['ADM2_NAME_ALT'] };
  const table = await adm2.getLayerTable(args);
  const out = await genFile({ format: 'csv', method: 'getLayer', args, table, meta: table.meta, now: new Date('2024-01-01T00:00:00Z') });
  const csv = out.files.find((f) => f.name.endsWith('.csv') && f.name.startsWith('getLayer'))!;
  writeFileSync(join(dir, 'adm2.csv'), csv.bytes);
  writeFileSync(join(dir, 'input.json'), JSON.stringify({ fixture: FIXTURE, adm2: ADM2, real: REAL, breaks: BREAKS, csv: join(dir, 'adm2.csv') }));
  R = JSON.parse(execFileSync('Rscript', [join(__dirname, 'r-differences.R'), join(dir, 'input.json')], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}, 180_000);

afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

async function errorOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try { await p; } catch (e) { if (isIndapiError(e)) return { code: e.code, message: e.message }; throw e; }
  throw new Error('expected an error');
}

describe('issue 12: the engine answers as R does', () => {
  it(`interval labels are R cut() labels for ${BREAKS.length} break sets and dig.lab 1..12`, () => {
    let n = 0;
    BREAKS.forEach((b, i) => {
      for (let d = 1; d <= 12; d++) {
        expect(cutLabels(b, d), `breaks ${JSON.stringify(b)}, dig.lab ${d}`).toEqual([].concat(R.labels[i][d - 1]));
        n++;
      }
    });
    expect(n).toBeGreaterThan(500);
  });

  it("default labels use R's dig.lab = 3 and dig.lab is an argument", async () => {
    const rows = (await fixture.getLayer({ var: ['AREA_LAND'], iso3: ['TZA'], by: { ELEVATION: [0, 500, 1500, 2500] } })) as Row[];
    expect(rows.slice(1).map((r) => r.ELEVATION)).toEqual(expect.arrayContaining(['(500,1.5e+03]', '(1.5e+03,2.5e+03]']));
    const wide = (await fixture.getLayer({ var: ['AREA_LAND'], iso3: ['TZA'], by: { ELEVATION: [0, 500, 1500, 2500] }, digLab: 5 })) as Row[];
    expect(wide.slice(1).map((r) => r.ELEVATION)).toEqual(expect.arrayContaining(['(500,1500]', '(1500,2500]']));
    for (const bad of [0, 13, 2.5, 'x']) {
      const e = await errorOf(fixture.getLayer({ var: ['AREA_LAND'], by: ['ELEVATION'], digLab: bad as never }));
      expect(e.code).toBe('BAD_ARGUMENT');
      expect(e.message).toContain("'dig.lab'");
    }
  });

  it("cells outside the breaks form R's NA group: a row with the key null; rows add up to the total", async () => {
    const rows = (await fixture.getLayer({ var: ['AREA_LAND', 'ELEVATION'], iso3: ['TZA'], by: { ELEVATION: [500, 1000, 1500] }, stats: ['count'] })) as Row[];
    const [total, ...groups] = rows;
    expect(total.total).toBe(1);
    expect(total.ELEVATION_by).toBeUndefined();
    const r = R.na.groups as Array<{ ELEV: string | null; AREA_LAND: number; ELEVATION_mean: number; cells: number }>;
    expect(groups).toHaveLength(r.length);
    expect(groups.at(-1)!.ELEVATION_by).toBeNull(); // the NA group comes last
    expect(groups.at(-1)!.cells).toBe(r.find((y) => y.ELEV === null)!.cells); // and says how many cells it holds
    for (const g of groups.slice(0, -1)) expect(g.cells).toBeUndefined();
    for (const g of groups) {
      const x = r.find((y) => y.ELEV === g.ELEVATION_by)!;
      expect(x, String(g.ELEVATION_by)).toBeTruthy();
      expect(g.AREA_LAND).toBe(roundR(x.AREA_LAND, 1));
      expect(g.ELEVATION).toBe(roundR(x.ELEVATION_mean, 0));
      expect(g.ELEVATION_count).toBe(x.cells);
    }
    expect(total.AREA_LAND).toBe(roundR(R.na.total, 1));
    const sum = groups.reduce((s, g) => s + Number(g.AREA_LAND), 0);
    expect(sum).toBeCloseTo(Number(total.AREA_LAND), 0);
    // per cell: every cell has a row; the NA group's cells carry the key null and its summary
    const cells = (await fixture.getLayer({ var: ['AREA_LAND'], iso3: ['TZA'], by: { ELEVATION: [500, 1000, 1500] }, collapse: false })) as Row[];
    const naCells = cells.filter((c) => c.ELEVATION === null);
    expect(naCells).toHaveLength(r.find((y) => y.ELEV === null)!.cells);
    expect(cells).toHaveLength(r.reduce((s, y) => s + y.cells, 0));
  });

  it('a code both var and by: key <CODE>_by (make.unique style), value keeps the code, overall row total: 1', async () => {
    const rows = (await fixture.getLayer({ var: ['ELEVATION'], iso3: ['KEN'], by: ['ELEVATION'] })) as Row[];
    expect(R.make_unique).toEqual(['ELEVATION', 'ELEVATION_1']);
    expect(rows[0]).toEqual({ ISO3: 'KEN', ADM0_NAME: 'Kenya', total: 1, ELEVATION: roundR(R.same_total, 0) });
    const groups = rows.slice(1);
    expect(groups.map((g) => g.ELEVATION_by)).toEqual(R.same.map((x: any) => x.ELEVATION_by));
    groups.forEach((g, i) => expect(g.ELEVATION).toBe(roundR(R.same[i].ELEVATION, 0)));
    for (const g of groups) expect(g.total).toBeUndefined();
  });

  const isoCases: Array<[string[], string[]]> = [[['KEN', 'WAF'], ['KEN', 'WAF']], [['KEN', 'EAF'], ['EAF', 'KEN']], [['EAF', 'WAF'], ['EAF', 'WAF']], [['SSA', 'KEN'], ['KEN', 'SSA']]];
  for (const [iso3, order] of isoCases) {
    it(`iso3 ${JSON.stringify(iso3)}: one row per code in code order, regions with their code and name`, async () => {
      const rows = (await real.getLayer({ var: ['AREA_TOTAL'], iso3 })) as Row[];
      expect(rows.map((r) => r.ISO3)).toEqual(order);
      for (const r of rows) {
        const x = R.iso[r.ISO3 as string];
        expect(r.ADM0_NAME).toBe(x.name);
        expect(r.AREA_TOTAL).toBeCloseTo(x.AREA_TOTAL, 1);
      }
    });
  }

  it('iso3 with a region and a by: each code has its overall row and its rows by domain', async () => {
    const seen: number[] = [];
    const rows = (await real.getLayer({ var: ['AREA_TOTAL'], iso3: ['KEN', 'EAF'], by: ['ELEV_ZONE'] }, { onProgress: (d, t) => seen.push(d / t) })) as Row[];
    expect(seen.at(-1)).toBe(1); // one progress over the blocks, never going back
    expect(seen.every((x, i) => i === 0 || x >= seen[i - 1])).toBe(true);
    const totals = rows.filter((r) => r.total === 1);
    expect(totals.map((r) => r.ISO3)).toEqual(['EAF', 'KEN']);
    const eaf = rows.slice(0, rows.indexOf(totals[1]));
    for (const r of eaf) expect(r.ISO3).toBe('EAF');
    const sum = eaf.slice(1).reduce((s, r) => s + Number(r.AREA_TOTAL), 0);
    expect(sum).toBeCloseTo(R.iso.EAF.AREA_TOTAL, -1);
  });

  it('a WKT sliver covering no cell centre counts its covered area (coverage fractions, as terra exact)', async () => {
    const wkt = 'POLYGON((0.391667 13.553667, 1.191667 13.553667, 1.191667 13.563667, 0.391667 13.563667, 0.391667 13.553667))';
    const t = await real.getLayerWKT({ var: ['AREA_TOTAL'], wkt });
    const byIso = new Map(t.rows.map((r) => [r.ISO3, Number(r.AREA_TOTAL)]));
    expect([...byIso.keys()].sort()).toEqual(R.sliver.map((x: any) => x.code));
    for (const x of R.sliver) {
      expect(byIso.get(x.code)).toBeCloseTo(x.AREA_TOTAL, 1);
      expect(x.touched).toBeGreaterThan(5 * x.AREA_TOTAL); // what counting whole touched cells gave
    }
    expect(byIso.get('BFA')! + byIso.get('NER')!).toBeGreaterThan(90);
    expect(byIso.get('BFA')! + byIso.get('NER')!).toBeLessThan(100);
  });

  it('similar by = 1 scores unrounded values and leaves out units with a missing indicator', async () => {
    const t = await adm2.similar({ x: 'KEN.01', var: ['RAIN_FIX', 'ELEVATION'], by: 1 });
    const codeOf = new Map([[101, 'KEN.01'], [102, 'KEN.02'], [201, 'TZA.01'], [202, 'TZA.02'], [203, 'TZA.03'], [301, 'UGA.01'], [302, 'UGA.02']]);
    const r = R.similar1;
    expect(t.rows.map((x) => x.ADM1_CODE_ALT).sort()).toEqual(r.id.map((i: number) => codeOf.get(i)).sort());
    for (const row of t.rows) {
      const k = r.id.findIndex((i: number) => codeOf.get(i) === row.ADM1_CODE_ALT);
      expect(Math.abs(Number(row.score) - r.score[k])).toBeLessThan(6e-5);
    }
    expect(t.rows.some((x) => x.ADM1_CODE_ALT === 'TZA.03')).toBe(false);
    expect(t.leftOut).toEqual({ count: r.left_out, of: 7, reason: `${r.left_out} of 7 first-level units left out: no value of RAIN_FIX (${r.left_out}).` });
    const e = await errorOf(adm2.similar({ x: 'TZA.03', var: ['RAIN_FIX'], by: 1 }));
    expect(e.message).toContain('RAIN_FIX');
  });

  it("similar leaves out units with no value of an indicator even where R's sum() gives 0 (real bundle)", async () => {
    const t = await real.similar({ x: 'Nairobi', var: ['PN14_POP', 'ELEVATION'], by: 1 });
    const r = R.similar_real;
    expect(r.no_pop).toBeGreaterThan(0);
    expect([].concat(r.no_pop_sum)).toEqual([0]); // R: sum(NA..., na.rm = TRUE) is 0 there
    expect(t.leftOut).toEqual({ count: r.left_out, of: r.units, reason: `${r.left_out} of ${r.units} first-level units left out: no value of PN14_POP (${r.no_pop}), ELEVATION (${r.no_elev}).` });
    expect(t.rows).toHaveLength(r.units - r.left_out);
    expect(t.columns.map((c) => c.name)).toEqual(['ADM1_CODE_ALT', 'ADM1_NAME_ALT', 'ISO3', 'PN14_POP', 'ELEVATION', 'score', 'rank']);
  });

  it('similar by = 0 scores cells on unrounded values, cells with a missing indicator left out', async () => {
    const t = await adm2.similar({ x: R.similar0_ref, var: ['RAIN_FIX', 'ELEVATION'], by: 0, iso3: ['UGA'] });
    const r = R.similar0;
    expect(t.rows).toHaveLength(r.id.length);
    const score = new Map<number, number>(r.id.map((i: number, k: number) => [i, r.score[k]]));
    for (const row of t.rows) expect(Math.abs(Number(row.score) - score.get(Number(row.CELL5M))!)).toBeLessThan(6e-5);
    expect(t.leftOut?.count).toBe(r.left_out);
    expect(r.left_out).toBe(3);
  });

  it('by ADM2: whole keys (ISO3, ADM1, ADM2), sorted so, values as R; same-named districts stay apart', async () => {
    const rows = (await adm2.getLayer({ var: ['AREA_LAND', 'ELEVATION'], by: ['ADM2_NAME_ALT'] })) as Row[];
    const [total, ...units] = rows;
    expect(total.total).toBe(1);
    expect(units).toHaveLength(R.adm2.length);
    R.adm2.forEach((x: any, i: number) => {
      const u = units[i];
      expect([u.ISO3, u.ADM1_NAME_ALT, u.ADM2_NAME_ALT]).toEqual([x.ISO3 ?? undefined, x.ADM1_NAME_ALT ?? undefined, x.ADM2_NAME_ALT ?? null]);
      expect(u.AREA_LAND).toBe(roundR(x.AREA_LAND, 1));
      expect(u.ELEVATION).toBe(roundR(x.ELEVATION, 0));
    });
    expect(units.filter((u) => u.ADM2_NAME_ALT === 'Central')).toHaveLength(4);
    // one country: rows carry the country and the ADM1 name too
    const ken = (await adm2.getLayer({ var: ['AREA_LAND'], iso3: ['KEN'], by: ['ADM2_CODE_ALT'] })) as Row[];
    expect(ken.slice(1).map((u) => `${u.ADM1_NAME_ALT}/${u.ADM2_CODE_ALT}`)).toEqual(['Eastern/KEN.02.01', 'Eastern/KEN.02.02', 'Rift/KEN.01.01', 'Rift/KEN.01.02', 'undefined/null']);
  });

  it('the CSV download by ADM2 reads in R with the same keys and values', () => {
    const csv = R.adm2_csv as Array<Record<string, unknown>>;
    const units = csv.filter((r) => r.total === null || r.total === undefined);
    expect(units).toHaveLength(R.adm2.length);
    R.adm2.forEach((x: any, i: number) => {
      expect([units[i].ISO3, units[i].ADM1_NAME_ALT, units[i].ADM2_NAME_ALT]).toEqual([x.ISO3, x.ADM1_NAME_ALT, x.ADM2_NAME_ALT]);
      expect(units[i].AREA_LAND).toBe(roundR(x.AREA_LAND, 1));
    });
    expect(csv.filter((r) => r.total === 1)).toHaveLength(1);
  });

  it('similar by = 2: districts by whole key, unrounded, left-out count; ambiguous names refused; 400 without ADM2 layers', async () => {
    const t = await adm2.similar({ x: 'KEN.01.01', var: ['RAIN_FIX', 'ELEVATION'], by: 2 });
    const r = R.similar2;
    const value = new Map<string, number>();
    for (const line of (await import('node:fs')).readFileSync(join(ADM2, 'classes/ADM2_CODE_ALT.csv'), 'utf8').trim().split('\n').slice(1)) {
      const [v, label] = line.split(',');
      value.set(label, Number(v));
    }
    expect(t.rows).toHaveLength(r.id.length);
    for (const row of t.rows) {
      const k = r.id.indexOf(value.get(String(row.ADM2_CODE_ALT)));
      expect(k).toBeGreaterThanOrEqual(0);
      expect(Math.abs(Number(row.score) - r.score[k])).toBeLessThan(6e-5);
      expect(typeof row.ADM1_NAME_ALT).toBe('string');
      expect(typeof row.ISO3).toBe('string');
    }
    expect(t.rows[0]).toMatchObject({ ADM2_CODE_ALT: 'KEN.01.01', ADM2_NAME_ALT: 'Central', ADM1_NAME_ALT: 'Rift', ISO3: 'KEN', rank: 1 });
    expect(t.leftOut?.count).toBe(r.left_out);
    const amb = await errorOf(adm2.similar({ x: 'Central', var: ['ELEVATION'], by: 2 }));
    expect(amb.code).toBe('BAD_ARGUMENT');
    expect(amb.message).toContain('KEN.01.01');
    const none = await errorOf(fixture.similar({ x: 'X', var: ['ELEVATION'], by: 2 }));
    expect(none.code).toBe('BAD_ARGUMENT');
    expect(none.message).toContain('not in this bundle');
  });
});
