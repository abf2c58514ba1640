/**
 * Every aggregation formula shape of the original catalog, evaluated by the engine and by R
 * itself (tests/engine/formula-crosscheck.R: data.table evaluating each record's aggFunR
 * text per group) on the formula fixture bundle (made-up values with R's NA cases: a unit
 * whose values are all NA, NA weights where the value is not, a divisor that is 0 or NA),
 * per first-level unit, per country and over the whole fixture, to the record's 6 decimals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { roundR } from '../../src/core/engine';
import type { Row } from '../../src/core/types';

const DIR = join(__dirname, 'fixtures/bundle-formula');
const engine = createNodeEngine(DIR);
const CODES = [...Array.from({ length: 18 }, (_, i) => `F${String(i + 1).padStart(2, '0')}`), 'FC', 'FD'];
const ISO: Record<number, string> = { 1: 'KEN', 2: 'TZA', 3: 'UGA' };
const CLASS: Record<string, string> = { 1: 'one', 2: 'two', 3: 'three', 4: 'four' };
type RGroup = { v: number | string | null; ADM1_CODE_ALT?: number; ISO3?: number };
let R: Record<string, { formula: string; adm1: RGroup[]; iso: RGroup[]; all: number | string | null }>;
let units: Map<number, string>;

/** The engine's field for an R value: absent for NA/NaN/Inf, rounded to dec 6, class labels. */
const expected = (code: string, v: number | string | null) => (v === null ? undefined : typeof v === 'string' ? CLASS[v] : roundR(v, 6));

beforeAll(async () => {
  R = JSON.parse(execFileSync('Rscript', [join(__dirname, 'formula-crosscheck.R'), DIR], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  units = new Map((await (await engine.loadCatalog()).classes('ADM1_CODE_ALT')).map((c) => [c.value, c.label]));
}, 120_000);

describe('catalog formulas: engine vs R evaluating aggFunR (data.table)', () => {
  it('R evaluated every shape record, and the fixture has the NA cases', () => {
    expect(Object.keys(R).sort()).toEqual([...CODES].sort());
    expect(R.F01.adm1.find((g) => g.ADM1_CODE_ALT === 203)!.v).toBe(0); // sum over all-NA: 0
    expect(R.F12.adm1.find((g) => g.ADM1_CODE_ALT === 101)!.v).toBeNull(); // NA weight where x is not
    expect(R.F04.adm1.find((g) => g.ADM1_CODE_ALT === 302)!.v).toBeNull(); // x / 0: Inf
    expect(R.F04.adm1.find((g) => g.ADM1_CODE_ALT === 203)!.v).toBeNull(); // 0 / 0: NaN
    expect(R.F08.adm1.find((g) => g.ADM1_CODE_ALT === 203)!.v).toBe(0); // W counts where A is NA
  });

  it('per first-level unit and over the whole fixture', async () => {
    const [all, ...rows] = (await engine.getLayer({ var: CODES, by: ['ADM1_CODE_ALT'] })) as Row[];
    for (const code of CODES) {
      expect({ code, v: all[code] }).toEqual({ code, v: expected(code, R[code].all) });
      expect(rows.map((r) => r.ADM1_CODE_ALT)).toEqual(R[code].adm1.map((g) => units.get(g.ADM1_CODE_ALT!)));
      R[code].adm1.forEach((g, i) => {
        expect({ code, unit: g.ADM1_CODE_ALT, v: rows[i][code] }).toEqual({ code, unit: g.ADM1_CODE_ALT, v: expected(code, g.v) });
      });
    }
  });

  it('per country', async () => {
    const rows = (await engine.getLayer({ var: CODES, iso3: ['KEN', 'TZA', 'UGA'] })) as Row[];
    for (const code of CODES) {
      R[code].iso.forEach((g) => {
        const row = rows.find((r) => r.ISO3 === ISO[g.ISO3!])!;
        expect({ code, iso: g.ISO3, v: row[code] }).toEqual({ code, iso: g.ISO3, v: expected(code, g.v) });
      });
    }
  });
});
