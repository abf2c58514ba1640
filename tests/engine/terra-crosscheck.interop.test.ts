/**
 * Cross-check of the engine against an independent computation with R terra + data.table
 * (tests/engine/terra-crosscheck.R) on the same COGs: zonal sums, means, weighted means,
 * medians, minima, dominant classes, interval labels, WKT selections (centre rule, touched
 * cells for a polygon smaller than a cell, a polygon with a hole) and exact coverage.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { geometryCells, parseWkt } from '../../src/core/wkt';
import { cellId } from '../../src/core/grid';
import { cutLabels, labelDigits, roundR } from '../../src/core/engine';
import type { Row } from '../../src/core/types';

const BUNDLE = join(__dirname, 'fixtures/bundle');
let R: any;
const engine = createNodeEngine(BUNDLE);
const unitValue: Record<string, number> = { 'KEN.01': 101, 'KEN.02': 102, 'TZA.01': 201, 'TZA.02': 202, 'TZA.03': 203, 'UGA.01': 301, 'UGA.02': 302 };
const zone: Record<string, number> = { lowland: 1, midland: 2, highland: 3, mountain: 4 };

beforeAll(() => {
  R = JSON.parse(execFileSync('Rscript', [join(__dirname, 'terra-crosscheck.R'), BUNDLE], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}, 120_000);

describe('engine vs R terra / data.table (fixture bundle)', () => {
  it('summaries by ADM1 over the region: mean, sum, weighted mean, median, min, dominant', async () => {
    const rows = (await engine.getLayer({ var: ['ELEVATION', 'AREA_LAND', 'TRI', 'SLOPE', 'DIST_COAST', 'ELEV_ZONE'], by: ['ADM1_CODE_ALT'] })) as Row[];
    const [summary, ...units] = rows;
    expect(units).toHaveLength(R.adm1.length);
    for (const u of units) {
      const r = R.adm1.find((x: any) => x.ADM1_CODE_ALT === unitValue[u.ADM1_CODE_ALT as string]);
      expect(r, String(u.ADM1_CODE_ALT)).toBeTruthy();
      expect(u.ELEVATION).toBe(roundR(r.ELEVATION, 0));
      expect(u.AREA_LAND).toBe(roundR(r.AREA_LAND, 1));
      expect(u.TRI).toBe(roundR(r.TRI, 2));
      expect(u.SLOPE).toBe(roundR(r.SLOPE, 2));
      expect(u.DIST_COAST).toBe(roundR(r.DIST_COAST, 1));
      expect(zone[u.ELEV_ZONE as string]).toBe(r.ELEV_ZONE);
    }
    const g = R.region[0];
    expect(summary).toEqual({
      total: 1,
      ELEVATION: roundR(g.ELEVATION, 0), AREA_LAND: roundR(g.AREA_LAND, 1), TRI: roundR(g.TRI, 2),
      SLOPE: roundR(g.SLOPE, 2), DIST_COAST: roundR(g.DIST_COAST, 1), ELEV_ZONE: 'mountain',
    });
    expect(zone.mountain).toBe(g.ELEV_ZONE);
  });

  it('one country by ADM1 x ELEVATION intervals: labels as R cut() prints them, values', async () => {
    const rows = (await engine.getLayer({ var: ['AREA_LAND', 'ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_CODE_ALT', 'ELEVATION'] })) as Row[];
    const broken = rows.filter((r) => r.ELEVATION !== undefined && r.ADM1_CODE_ALT !== undefined);
    expect(broken).toHaveLength(R.intervals.length);
    R.intervals.forEach((r: any, i: number) => {
      const u = broken[i];
      expect(unitValue[u.ADM1_CODE_ALT as string]).toBe(r.ADM1_CODE_ALT);
      expect(u.ELEVATION).toBe(r.ELEV_INT);
      expect(u.AREA_LAND).toBe(roundR(r.AREA_LAND, 1));
      expect(zone[u.ELEV_ZONE as string]).toBe(r.ELEV_ZONE);
      expect(u.ISO3).toBe('KEN');
      expect(u.ADM0_NAME).toBe('Kenya');
    });
    const br = [0, 250.5, 1000, 25000];
    expect(cutLabels(br, labelDigits(br))).toEqual(R.custom_labels);
  });

  it('rounds as R round() does', () => {
    expect([roundR(2.5, 0), roundR(0.15, 1), roundR(1.005, 2), roundR(-1.25, 1), roundR(2675.5, 0), roundR(0.285, 2)]).toEqual(R.round);
  });

  for (const name of ['hole', 'small', 'tri']) {
    it(`WKT '${name}': centre / touched cells and exact coverage match terra`, async () => {
      const grid = await engine.grid();
      const w = R.wkt[name];
      const wkt = {
        hole: 'POLYGON ((31.02 1.9, 33.9 1.9, 33.9 -0.7, 31.02 -0.7, 31.02 1.9), (31.5 1.5, 32.5 1.5, 32.5 0.6, 31.5 0.6, 31.5 1.5))',
        small: 'POLYGON ((32.31 0.51, 32.35 0.51, 32.35 0.54, 32.31 0.51))',
        tri: 'POLYGON ((30.13 -1.2, 34.7 -0.33, 31.9 1.77, 30.13 -1.2))',
      }[name]!;
      const sel = geometryCells(parseWkt(wkt), grid)!;
      const ids: number[] = [];
      const ww = sel.win[2] - sel.win[0];
      sel.weight.forEach((v, i) => { if (v > 0) ids.push(cellId(grid, sel.win[0] + (i % ww), sel.win[1] + Math.floor(i / ww))); });
      const expected = name === 'small' ? w.touch : w.centre;
      expect(ids.sort((a, b) => a - b)).toEqual([].concat(expected).sort((a: number, b: number) => a - b));
      // exact fractions per cell
      const ex = geometryCells(parseWkt(wkt), grid, true)!;
      const fr = new Map<number, number>();
      ex.weight.forEach((v, i) => { if (v > 0) fr.set(cellId(grid, ex.win[0] + (i % ww), ex.win[1] + Math.floor(i / ww)), v); });
      const rEx: Array<{ CELL5M: number; fraction: number }> = [].concat(w.exact.CELL5M ? w.exact.CELL5M.map((c: number, i: number) => ({ CELL5M: c, fraction: w.exact.fraction[i] })) : w.exact);
      for (const { CELL5M, fraction } of rEx) expect(fr.get(CELL5M) ?? 0, `cell ${CELL5M}`).toBeCloseTo(fraction, 4) // weights are Float32;
      // exact summaries: sums scaled by the fraction, means weighted by it
      const t = await engine.getLayerWKT({ var: ['AREA_LAND', 'ELEVATION'], wkt, exact: true, iso3: ['SSA'] });
      const sumArea = t.rows.reduce((s, r) => s + Number(r.AREA_LAND ?? 0), 0);
      expect(sumArea).toBeCloseTo(w.exact_sum_area, 0);
      if (t.rows.length === 1) expect(t.rows[0].ELEVATION).toBe(roundR(w.exact_mean_elev, 0));
    });
  }
});
