/**
 * Answers equal R's on rounding ties (issue 15 item 6): the generated tie table
 * (tests/ingest/fixtures/islands.fixture.ts tieTable: MADE-UP values; units whose area-weighted
 * mean is exactly x.x5, sums beyond a double's 53 bits) is ingested and queried by ADM2, ADM1
 * and over the whole table; R (tests/engine/ties.R: data.table evaluating the catalog's aggFunR,
 * long double sums, then round(, 1)) must give the same value for every unit. roundR is also checked against R's round() on
 * numbers near decimal halves.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundR } from '../../src/core/engine';
import { createNodeEngine } from '../../src/node/engine';
import { ingestTable } from '../../src/node/ingest';
import { fixtureCatalog, tieTable } from '../ingest/fixtures/islands.fixture';

type RRow = { v: number | null; r: number | null; ADM1_NAME_ALT?: string; ADM2_NAME_ALT?: string };
type RSide = { adm2: RRow[]; adm1: RRow[]; all: RRow[] };
let dir = '';
let R: { RAIN_FIX: RSide; WM_FIX: RSide; round: number[] };
let nums: { x: number[]; d: number[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ties-'));
  writeFileSync(join(dir, 'ties.csv'), tieTable());
  writeFileSync(join(dir, 'vi.csv'), fixtureCatalog(join(__dirname, '../ingest/fixtures')));
  const res = await ingestTable({ table: join(dir, 'ties.csv'), catalog: join(dir, 'vi.csv'), out: join(dir, 'bundle') });
  expect(res.ok, JSON.stringify(res.findings)).toBe(true);
  // numbers near decimal halves: k/20, k/200 (+- a few ulps) and sums of tenths, with 1 .. 3 digits
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  nums = { x: [], d: [] };
  for (let i = 0; i < 3000; i++) {
    const d = 1 + (i % 3);
    const half = (Math.floor(rnd() * 2000) * 2 + 1) / (2 * 10 ** d) * (rnd() < 0.1 ? -1 : 1) + Math.floor(rnd() * 50);
    const ulps = Math.floor(rnd() * 5) - 2;
    nums.x.push(half + ulps * Number.EPSILON * Math.abs(half));
    nums.d.push(d);
  }
  writeFileSync(join(dir, 'nums.json'), JSON.stringify(nums));
  R = JSON.parse(execFileSync('Rscript', [join(__dirname, 'ties.R'), join(dir, 'ties.csv'), join(dir, 'vi.csv'), join(dir, 'nums.json')], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}, 180_000);
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('rounding ties: engine vs R data.table', () => {
  it('roundR is R round() (R >= 4) on numbers near decimal halves', () => {
    const diff = nums.x.map((x, i) => [x, nums.d[i], roundR(x, nums.d[i]), R.round[i]]).filter((r) => r[2] !== r[3]);
    expect(diff).toEqual([]);
  });

  for (const code of ['RAIN_FIX', 'WM_FIX'] as const) {
    it(`${code}: every ADM2 unit, ADM1 unit and the total equal R's after round(, 1)`, async () => {
      const e = createNodeEngine(join(dir, 'bundle'));
      const side = R[code];
      expect(side.adm2).toHaveLength(40);
      // the table is made of ties: R's unrounded means are the doubles nearest x.x5
      for (const g of side.adm2) expect(Math.round(g.v! * 100) % 10).toBe(5);
      const got2 = (await e.getLayer({ var: [code], by: ['ADM2_NAME_ALT'] })) as Array<Record<string, number | string>>;
      const mine2 = new Map(got2.filter((r) => r.ADM2_NAME_ALT).map((r) => [r.ADM2_NAME_ALT, r[code]]));
      const d2 = side.adm2.filter((g) => mine2.get(g.ADM2_NAME_ALT!) !== g.r).map((g) => [g.ADM2_NAME_ALT, g.v, g.r, mine2.get(g.ADM2_NAME_ALT!)]);
      expect(d2).toEqual([]);
      const got1 = (await e.getLayer({ var: [code], by: ['ADM1_NAME_ALT'] })) as Array<Record<string, number | string>>;
      const mine1 = new Map(got1.filter((r) => r.ADM1_NAME_ALT).map((r) => [r.ADM1_NAME_ALT, r[code]]));
      expect(side.adm1.filter((g) => mine1.get(g.ADM1_NAME_ALT!) !== g.r).map((g) => [g.ADM1_NAME_ALT, g.v, g.r, mine1.get(g.ADM1_NAME_ALT!)])).toEqual([]);
      const all = (await e.getLayer({ var: [code] })) as Array<Record<string, number>>;
      expect(all[0][code]).toBe(side.all[0].r);
    });
  }
});
