/**
 * Values stored exactly (issue 23 item 2): a table whose grouped weighted means fall exactly on
 * rounding ties (x.x5 at 1 decimal, x.xx5 at 2) ingests, and the engine's answer for every ADM1
 * and ADM2 unit equals R data.table's `round(sum(x*w)/sum(w), dec)` over the same table (R reads
 * the decimal text as the nearest doubles). Stored as Float32 (before), the inputs moved off the
 * ties (23.45 -> 23.450000762939453) and units rounded the other way. The ingested COGs are
 * scaled integers that GDAL (`gdalinfo -stats`) and R terra read as the table's values.
 *
 * The fixture table `ties.fixture.csv` is built here (MADE-UP values on real 5-arc-minute cells
 * of Kenya, invented admin units): per ADM2 unit, pairs of 1-decimal values `c - d`, `c + d` with
 * one integer weight per pair around a centre c = m.n5, plus one cell of c itself (2 decimals);
 * `TIE2_FX` the same one decimal further (2-decimal values around m.nn5); weights 1..9 in `WT_FX`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { ingestTable } from '../../src/node/ingest';
import type { IndapiEngine } from '../../src/core/engine';

const FIX = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const RAIN = readFileSync(join(FIX, 'vi.fixture.csv'), 'utf8').split('\n').filter((l) => l.startsWith('"RAIN_FIX"') || l.startsWith('"varCode"'));

/** A seeded PRNG (mulberry32), so the fixture is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds ties.fixture.csv and its catalog; returns their paths and the table's cells. */
function buildFixture(dir: string): { table: string; catalog: string; cells: Array<{ id: number; t1: string; t2: string }> } {
  const rnd = prng(23);
  const rows: string[] = ['"CELL5M","ISO3","ADM0_NAME","ADM1_NAME_ALT","ADM2_NAME_ALT","X","Y","TIE1_FX","TIE2_FX","WT_FX"'];
  const cells: Array<{ id: number; t1: string; t2: string }> = [];
  // Kenya: rows 1080.. (0.5 S ..), columns 2600.. (36.7 E ..); 12 ADM1 units of 20 ADM2 units of 5 to 9 cells
  let col = 2600, row = 1080;
  for (let a1 = 0; a1 < 12; a1++) {
    for (let a2 = 0; a2 < 20; a2++) {
      const m = Math.floor(rnd() * 400) - 100; // negative centres too
      const n1 = Math.floor(rnd() * 10), n2 = Math.floor(rnd() * 100);
      const c1 = m * 100 + n1 * 10 + 5; // centre x 100: m.n5
      const c2 = m * 1000 + n2 * 10 + 5; // centre x 1000: m.nn5
      const pairs = 2 + Math.floor(rnd() * 4);
      const w0 = 1 + Math.floor(rnd() * 9);
      // the centre itself (2 decimals) in TIE1_FX; TIE2_FX's centre would need 3 decimals: c2 -/+ 0.005 instead
      const vals: Array<[string, string, number]> = [[(c1 / 100).toFixed(2), ((c2 - 5) / 1000).toFixed(2), w0], [(c1 / 100).toFixed(2), ((c2 + 5) / 1000).toFixed(2), w0]];
      for (let p = 0; p < pairs; p++) {
        const d1 = 5 + 10 * Math.floor(rnd() * 20), d2 = 5 + 10 * Math.floor(rnd() * 20), w = 1 + Math.floor(rnd() * 9);
        vals.push([((c1 - d1) / 100).toFixed(1), ((c2 - d2) / 1000).toFixed(2), w]);
        vals.push([((c1 + d1) / 100).toFixed(1), ((c2 + d2) / 1000).toFixed(2), w]);
      }
      for (const [t1, t2, w] of vals) {
        const id = row * 4320 + col;
        const x = (-180 + (col + 0.5) / 12).toFixed(5), y = (90 - (row + 0.5) / 12).toFixed(5);
        rows.push(`${id},"KEN","Kenya","Region ${a1 + 1}","District ${a2 + 1}",${x},${y},${t1},${t2},${w}`);
        cells.push({ id, t1, t2 });
        if (++col === 2700) { col = 2600; row++; }
      }
    }
  }
  const table = join(dir, 'ties.fixture.csv');
  writeFileSync(table, rows.join('\n') + '\n');
  const rec = (code: string, dec: number) => RAIN[1].replaceAll('RAIN_FIX', code).replaceAll('AREA_FIX', 'WT_FX').replace('"mm","1"', `"index","${dec}"`);
  const catalog = join(dir, 'vi.ties.fixture.csv');
  writeFileSync(catalog, [RAIN[0], rec('TIE1_FX', 1), rec('TIE2_FX', 2)].join('\n') + '\n');
  return { table, catalog, cells };
}

let dir: string;
let fx: ReturnType<typeof buildFixture>;
let e: IndapiEngine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exact-values-'));
  fx = buildFixture(dir);
  const res = await ingestTable({ table: fx.table, catalog: fx.catalog, out: join(dir, 'bundle') });
  if (!res.ok) throw new Error(`ingest failed: ${res.findings.filter((f) => f.severity !== 'info').map((f) => f.message).join('; ')}`);
  e = createNodeEngine(join(dir, 'bundle'));
}, 120_000);

afterAll(async () => {
  await e?.store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('values stored exactly (ties at 1 and 2 decimals)', () => {
  it('the fixture really sits on ties that Float32 inputs move', () => {
    const f32 = (s: string) => Math.fround(Number(s)) !== Number(s);
    expect(fx.cells.filter((c) => f32(c.t1)).length).toBeGreaterThan(fx.cells.length / 2);
    expect(fx.cells.some((c) => /\.\d\d$/.test(c.t1)) && fx.cells.some((c) => /\.\d$/.test(c.t1))).toBe(true);
  });

  it('every ADM1 and ADM2 unit equals R data.table round(sum(x*w)/sum(w), dec)', async () => {
    const R = String.raw`
suppressMessages(library(data.table))
a <- commandArgs(trailingOnly = TRUE)
dt <- fread(a[1], encoding = "UTF-8", na.strings = "")
out <- rbind(
  dt[, .(level = 2L, TIE1_FX = round(sum(TIE1_FX * WT_FX) / sum(WT_FX), 1), TIE2_FX = round(sum(TIE2_FX * WT_FX) / sum(WT_FX), 2)), by = .(ISO3, ADM1_NAME_ALT, ADM2_NAME_ALT)],
  dt[, .(level = 1L, ADM2_NAME_ALT = "", TIE1_FX = round(sum(TIE1_FX * WT_FX) / sum(WT_FX), 1), TIE2_FX = round(sum(TIE2_FX * WT_FX) / sum(WT_FX), 2)), by = .(ISO3, ADM1_NAME_ALT)],
  use.names = TRUE)
fwrite(out, a[2])
`;
    writeFileSync(join(dir, 'ref.R'), R);
    execFileSync('Rscript', [join(dir, 'ref.R'), fx.table, join(dir, 'ref.csv')], { env: { ...process.env, LC_ALL: 'C.UTF-8' }, stdio: 'pipe' });
    const ref = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'ref.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
    const wrong: string[] = [];
    let compared = 0;
    for (const level of [1, 2]) {
      const by = level === 1 ? 'ADM1_NAME_ALT' : 'ADM2_NAME_ALT';
      const got = (await e.getLayer({ var: ['TIE1_FX', 'TIE2_FX'], by: [by] })) as Array<Record<string, string | number | null>>;
      const key = (r: Record<string, unknown>) => `${r.ADM1_NAME_ALT}|${level === 2 ? r.ADM2_NAME_ALT : ''}`;
      const byKey = new Map(got.filter((r) => r[by]).map((r) => [key(r), r]));
      const mine = ref.filter((r) => r.level === String(level));
      expect(mine.length).toBe(level === 1 ? 12 : 240);
      expect(byKey.size).toBe(mine.length);
      for (const r of mine) {
        for (const code of ['TIE1_FX', 'TIE2_FX']) {
          const v = byKey.get(key(r))?.[code];
          if (v !== Number(r[code])) wrong.push(`${code} ${key(r)}: engine ${v}, R ${r[code]}`);
          compared++;
        }
      }
    }
    expect(compared).toBe(2 * 252);
    expect(wrong, wrong.slice(0, 5).join('; ')).toEqual([]);
  }, 60_000);

  it('stores scaled integers that gdalinfo -stats and R terra read as the table values', () => {
    const env = { ...process.env, GDAL_PAM_ENABLED: 'NO' };
    const vals = (k: 't1' | 't2') => fx.cells.map((c) => Number(c[k]));
    for (const [code, k, scale, type] of [['TIE1_FX', 't1', 0.01, 'Int16'], ['TIE2_FX', 't2', 0.01, 'Int16']] as const) {
      const tif = join(dir, 'bundle', 'cog', `${code}.tif`);
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', tif], { encoding: 'utf8', env }));
      const b = info.bands[0];
      expect(b).toMatchObject({ type, scale, offset: 0, noDataValue: -32768 });
      const v = vals(k);
      const mean = v.reduce((s, x) => s + x, 0) / v.length;
      // GDAL's statistics are of the stored integers; scale applied they are the table's values
      expect(b.minimum * b.scale + b.offset).toBeCloseTo(Math.min(...v), 9);
      expect(b.maximum * b.scale + b.offset).toBeCloseTo(Math.max(...v), 9);
      expect(b.mean * b.scale + b.offset).toBeCloseTo(mean, 4); // gdalinfo prints the mean to 3 decimals of the integers
    }
    // R terra applies the scale itself: each cell's value is the table's, and the table's cell count
    const R = String.raw`
suppressMessages(library(terra))
a <- commandArgs(trailingOnly = TRUE)
r <- rast(a[1])
cells <- read.csv(a[2])
xy <- cbind(-180 + (cells$CELL5M %% 4320 + 0.5) / 12, 90 - (cells$CELL5M %/% 4320 + 0.5) / 12)
v <- values(r)[cellFromXY(r, xy), 1]
cat(sprintf("%d %d %.17g\n", sum(!is.na(values(r))), sum(abs(v - cells$TIE1_FX) > 1e-9), max(abs(v - cells$TIE1_FX))))
`;
    writeFileSync(join(dir, 'terra.R'), R);
    const out = execFileSync('Rscript', [join(dir, 'terra.R'), join(dir, 'bundle', 'cog', 'TIE1_FX.tif'), fx.table], { encoding: 'utf8', stdio: 'pipe' }).trim().split(' ');
    expect(Number(out[0])).toBe(fx.cells.length);
    expect(Number(out[1]), `max difference ${out[2]}`).toBe(0);
  }, 60_000);

  it('the engine reads back every cell as the double of the table text', async () => {
    const grid = await e.grid();
    const cellsOf = await e.store.readFloat('cog/TIE1_FX.tif', [0, 0, grid.width, grid.height]);
    const cells2 = await e.store.readFloat('cog/TIE2_FX.tif', [0, 0, grid.width, grid.height]);
    let bad = 0;
    for (const c of fx.cells) {
      const i = (Math.floor(c.id / 4320) - grid.rowOffset) * grid.width + (c.id % 4320) - grid.colOffset;
      if (cellsOf[i] !== Number(c.t1) || cells2[i] !== Number(c.t2)) bad++;
    }
    expect(bad).toBe(0);
  });
});
