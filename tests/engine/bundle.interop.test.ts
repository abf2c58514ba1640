/**
 * The engine on the real bundle (public/data), cross-checked cell for cell with an
 * independent R terra + data.table computation (tests/engine/bundle-crosscheck.R):
 * the catalog's formulas evaluated by R itself (weighted means, sums, dominant classes),
 * interval labels, rollup rows, WKT selections, R's 0 for sums over a country without source
 * data, and the population-weighted life expectancy of a region with Eritrea (issue 12).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { roundR } from '../../src/core/engine';
import type { Row } from '../../src/core/types';

const DIR = join(__dirname, '../../public/data');
const engine = createNodeEngine(DIR);
const WKT = 'POLYGON ((36.51 -1.52, 37.73 -1.52, 37.73 -0.41, 36.51 -0.41, 36.51 -1.52), (36.9 -1.2, 37.3 -1.2, 37.3 -0.8, 36.9 -0.8, 36.9 -1.2))';
let R: any;
let adm1: Map<number, string>, zones: Map<number, string>;
let kenValue: number, cpvValue: number;

beforeAll(async () => {
  const cat = await engine.loadCatalog();
  const isoClasses = await cat.classes('ISO3');
  const ken = isoClasses.find((c) => c.label === 'KEN')!;
  const cpv = isoClasses.find((c) => c.label === 'CPV')!;
  kenValue = ken.value; cpvValue = cpv.value;
  adm1 = new Map((await cat.classes('ADM1_CODE_ALT')).map((c) => [c.value, c.label]));
  zones = new Map((await cat.classes('ELEV_ZONE')).map((c) => [c.value, c.label]));
  R = JSON.parse(execFileSync('Rscript', [join(__dirname, 'bundle-crosscheck.R'), DIR, String(ken.value), WKT, String(cpv.value)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}, 180_000);

const VARS = ['ELEVATION', 'AREA_LAND', 'ELEV_ZONE', 'PN14_LIFEEXP', 'DIST_COAST'];
/** An R value rounded as the engine rounds it; R NA (null) is an absent field. */
const rr = (x: number | null, dec: number) => (x === null ? undefined : roundR(x, dec));
function same(row: Row, r: any) {
  expect(row.ELEVATION).toBe(rr(r.ELEVATION, 0));
  expect(row.AREA_LAND).toBe(rr(r.AREA_LAND, 2));
  expect(row.ELEV_ZONE).toBe(r.ELEV_ZONE === null ? undefined : zones.get(r.ELEV_ZONE));
  expect(row.PN14_LIFEEXP).toBe(rr(r.PN14_LIFEEXP, 1));
  expect(row.DIST_COAST).toBe(rr(r.DIST_COAST, 1));
}

describe('engine on the real bundle vs R terra / data.table', () => {
  it('KEN by ADM1: country row then one row per unit', async () => {
    const rows = (await engine.getLayer({ var: VARS, iso3: ['KEN'], by: ['ADM1_CODE_ALT'] })) as Row[];
    expect(rows[0].ISO3).toBe('KEN');
    expect(rows[0].ADM0_NAME).toBe('Kenya');
    expect(rows[0].ADM1_CODE_ALT).toBeUndefined();
    same(rows[0], R.country[0]);
    const units = rows.slice(1);
    expect(units).toHaveLength(R.adm1.length);
    for (const r of R.adm1) same(units.find((u) => u.ADM1_CODE_ALT === adm1.get(r.ADM1_CODE_ALT))!, r);
  });

  it('KEN by default ELEVATION intervals: R cut() labels and values', async () => {
    const rows = (await engine.getLayer({ var: VARS, iso3: ['KEN'], by: ['ELEVATION'] })) as Row[];
    const ints = rows.filter((r) => typeof r.ELEVATION_by === 'string'); // the NA group (key null) is compared elsewhere
    expect(ints.map((r) => r.ELEVATION_by)).toEqual(R.intervals.map((r: any) => r.ELEV_INT));
    ints.forEach((row, i) => same(row, R.intervals[i]));
  });

  it("population by ADM1 over the region equals R's sum(na.rm = TRUE) (0 where terra::zonal gives NA)", async () => {
    const rows = (await engine.getLayer({ var: ['PN14_POP'], by: ['ADM1_CODE_ALT'] })) as Row[];
    expect(rows.length - 1).toBe(R.pop_adm1.length);
    expect(rows.length).toBeGreaterThan(700);
    const byCode = new Map(rows.map((r) => [r.ADM1_CODE_ALT, r.PN14_POP]));
    // R's sum(x, na.rm = TRUE) is 0 for a unit without values; terra's zonal gives NA there
    for (const r of R.pop_adm1) expect(byCode.get(adm1.get(r.ADM1_CODE_ALT)!)).toBe(rr(r.PN14_POP, 0));
    const empty = R.pop_adm1.filter((r: any) => r.PN14_POP_terra === null);
    expect(empty.length).toBeGreaterThan(0);
    for (const r of empty) expect(byCode.get(adm1.get(r.ADM1_CODE_ALT)!)).toBe(0);
  });

  it("national population: R's 0 for CPV (no source data), the COG sum and spData figure for KEN", async () => {
    const rows = (await engine.getLayer({ var: ['PN14_POP', 'AREA_LAND'], iso3: ['CPV', 'KEN'] })) as Row[];
    const cpv = rows.find((r) => r.ISO3 === 'CPV')!;
    const ken = rows.find((r) => r.ISO3 === 'KEN')!;
    expect(rows.map((r) => r.ISO3).sort()).toEqual(['CPV', 'KEN']);
    const cpvR = R.pop_iso.find((r: any) => r.ISO3 === cpvValue);
    const kenR = R.pop_iso.find((r: any) => r.ISO3 === kenValue);
    // CPV has cells with land area but no population value in the bundle (absent from spData)
    expect(cpvR.n).toBeGreaterThan(0);
    expect(cpvR.PN14_POP).toBe(0);
    expect(R.spdata_pop.CPV).toEqual([]);
    expect(cpv.PN14_POP).toBe(0);
    expect(cpv.AREA_LAND).toBe(rr(cpvR.AREA_LAND, 2));
    expect(cpv.AREA_LAND as number).toBeGreaterThan(0);
    // KEN: the sum of the COG's cells, which add up to spData's 2014 figure
    expect(ken.PN14_POP).toBe(roundR(kenR.PN14_POP, 0));
    expect(ken.PN14_POP).toBe(Math.round(R.spdata_pop.KEN));
    expect(ken.AREA_LAND).toBe(rr(kenR.AREA_LAND, 2));
  });

  it("life expectancy over EAF: R's weighted.mean is NA (Eritrea), the catalog formula is the population-weighted mean", async () => {
    expect(R.eaf.weighted_mean).toBeNull();
    expect(R.eaf.formula).toBeGreaterThan(40);
    const [row] = (await engine.getLayer({ var: ['PN14_LIFEEXP'], iso3: ['EAF'] })) as Row[];
    expect(row.PN14_LIFEEXP).toBe(rr(R.eaf.formula, 1));
    // Eritrea alone: life expectancy but no population, so 0/0: missing, as R's NaN
    expect(R.eaf.eri).toBeNull();
    const [eri] = (await engine.getLayer({ var: ['PN14_LIFEEXP'], iso3: ['ERI'] })) as Row[];
    expect(eri).not.toHaveProperty('PN14_LIFEEXP');
  });

  it('a polygon with a hole: centre cells and exact coverage as terra extract()', async () => {
    const centre = await engine.getLayerWKT({ var: ['AREA_LAND'], wkt: WKT, stats: ['count'] });
    const sum = centre.rows.reduce((s, r) => s + Number(r.AREA_LAND), 0);
    expect(sum).toBeCloseTo(R.wkt_centre.area, 1);
    expect(centre.rows.reduce((s, r) => s + Number(r.AREA_LAND_count), 0)).toBe(R.wkt_centre.n);
    const exact = await engine.getLayerWKT({ var: ['AREA_LAND', 'ELEVATION'], wkt: WKT, exact: true });
    expect(exact.rows).toHaveLength(1);
    expect(exact.rows[0].AREA_LAND).toBeCloseTo(R.wkt_exact.area, 1);
    expect(exact.rows[0].ELEVATION).toBe(roundR(R.wkt_exact.elev, 0));
  });
});
