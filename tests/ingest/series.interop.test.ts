/**
 * Ingest of yearly layers into series: the fixture table (tests/ingest/fixtures/cells.fixture.csv,
 * MADE-UP values) with three yearly columns WPOP_2000, WPOP_2005, WPOP_2010 (POP_FIX times 1, 2
 * and 3: made up) and the CELL5M pair PN00_FIX / PN05_FIX becomes a bundle whose vi.csv marks two
 * series (WPOP, PN_FIX), listed in the findings; the engine answers `var = "WPOP"` per year equal
 * to the table's sums and refuses a year not held naming the held years.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formSeries, parseVi } from '../../src/core/bundle';
import type { Row } from '../../src/core/api';
import { createNodeEngine } from '../../src/node/engine';
import { ingestTable, type Finding } from '../../src/node/ingest';

const FIX = join(__dirname, 'fixtures');
let dir = '';
let rows: Array<Record<string, string>> = [];
let findings: Finding[] = [];
const YEARS = { WPOP_2000: 1, WPOP_2005: 2, WPOP_2010: 3 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'series-ingest-'));
  const t = Papa.parse<Record<string, string>>(readFileSync(join(FIX, 'cells.fixture.csv'), 'utf8'), { header: true, skipEmptyLines: true });
  rows = t.data.map((r) => {
    const out: Record<string, string> = { ...r, PN00_FIX: r.POP_FIX, PN05_FIX: r.POP_FIX === '' ? '' : String(Number(r.POP_FIX) + 1) };
    for (const [c, k] of Object.entries(YEARS)) out[c] = r.POP_FIX === '' ? '' : String(Number(r.POP_FIX) * k);
    return out;
  });
  writeFileSync(join(dir, 'cells.csv'), Papa.unparse(rows, { quotes: true, newline: '\n' }));
  const vi = Papa.parse<Record<string, string>>(readFileSync(join(FIX, 'vi.fixture.csv'), 'utf8'), { header: true, skipEmptyLines: true });
  const pop = vi.data.find((r) => r.varCode === 'POP_FIX')!;
  const recs = [...vi.data, ...Object.keys(YEARS).map((c) => ({ ...pop, varCode: c, year: c.slice(-4), yearEnd: c.slice(-4), aggFunR: `sum(${c}, na.rm=TRUE)` })),
    ...['PN00_FIX', 'PN05_FIX'].map((c) => ({ ...pop, varCode: c, year: `20${c.slice(2, 4)}`, yearEnd: `20${c.slice(2, 4)}`, cat3: 'Population (fixture)', aggFunR: `sum(${c}, na.rm=TRUE)` }))];
  writeFileSync(join(dir, 'vi.csv'), Papa.unparse({ fields: vi.meta.fields!, data: recs }, { quotes: true, newline: '\n' }) + '\n');
  const res = await ingestTable({ table: join(dir, 'cells.csv'), catalog: join(dir, 'vi.csv'), out: join(dir, 'bundle') });
  expect(res.ok, JSON.stringify(res.findings)).toBe(true);
  findings = res.findings;
}, 120_000);
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('ingest: yearly layers become series', () => {
  it('vi.csv marks the series and the findings list them', () => {
    const recs = parseVi(readFileSync(join(dir, 'bundle', 'vi.csv'), 'utf8'));
    const formed = formSeries(recs);
    expect(formed.map((s) => [s.stem, s.rule, s.members.map((m) => m.year)])).toEqual([
      ['PN_FIX', 'column', [2000, 2005]],
      ['WPOP', 'column', [2000, 2005, 2010]],
    ]);
    expect(recs.find((r) => r.varCode === 'WPOP_2005')!.series).toBe('WPOP');
    const notes = findings.filter((f) => f.kind === 'series').map((f) => f.message);
    expect(notes).toEqual([expect.stringContaining('PN_FIX (two-digit-year): PN00_FIX 2000, PN05_FIX 2005'), expect.stringContaining('WPOP (year-suffix): WPOP_2000 2000, WPOP_2005 2005, WPOP_2010 2010')]);
  });

  it('the engine answers the series per year, equal to the table, and refuses a year not held', async () => {
    const e = createNodeEngine(join(dir, 'bundle'));
    const got = await e.getLayer({ var: ['WPOP'], iso3: ['CIV'], year: [2000, 2005, 2010] }) as Row[];
    const civ = rows.filter((r) => r.ISO3 === 'CIV' && r.POP_FIX !== '');
    expect(got.map((r) => [r.year, r.WPOP])).toEqual(Object.entries(YEARS).map(([c, k]) => [Number(c.slice(-4)), civ.reduce((s, r) => s + Number(r.POP_FIX) * k, 0)]));
    const pn = await e.getLayer({ var: ['PN_FIX'], iso3: ['CIV'], year: [2000, 2005], change: 'diff' }) as Row[];
    expect(pn[0].PN_FIX).toBe(civ.length);
    await expect(e.getLayer({ var: ['WPOP'], iso3: ['CIV'], year: [2001] })).rejects.toThrow("'year': WPOP does not hold 2001; it holds 2000, 2005, 2010.");
  });
});
