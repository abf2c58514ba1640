/**
 * National series on the grid (the committed bundle): every cell of a country carries the
 * country's value of the year (national value, no variation within the country), so each
 * first-level unit of Kenya repeats Kenya's value; a per-cell read gives it on every Kenyan cell;
 * the value is the one of series/national.csv for that year.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/core/api';
import { parseNationalSeries } from '../../src/core/bundle';
import { createNodeEngine, nodeInflate } from '../../src/node/engine';
import { createRuntime } from '../../src/core/runtime';
import { fileSourceFactory, fileTextLoader } from '../../src/node/file-source';

const e = createNodeEngine('public/data');
const table = parseNationalSeries(readFileSync('public/data/series/national.csv', 'utf8'));

describe('national series on the grid', () => {
  it('every admin-1 unit of Kenya carries the national value of the year', async () => {
    const ken2000 = table.values.get('GM_LIFE_EXP')!.get(2000)!.get('KEN')!;
    const ken2010 = table.values.get('GM_LIFE_EXP')!.get(2010)!.get('KEN')!;
    expect(ken2000).not.toBe(ken2010);
    const rows = await e.getLayer({ var: ['GM_LIFE_EXP'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'], year: [2000, 2010] }) as Row[];
    const units = rows.filter((r) => r.ADM1_NAME_ALT);
    expect(units.length).toBeGreaterThanOrEqual(16);
    for (const r of units) expect(r.GM_LIFE_EXP).toBeCloseTo(r.year === 2000 ? ken2000 : ken2010, 9);
  });

  it('per cell (one year) every Kenyan cell has the national value; several years per cell are refused naming year', async () => {
    const v = table.values.get('WDI_TFR')!.get(1990)!.get('KEN')!;
    const cells = await e.getLayerCells({ var: ['WDI_TFR'], iso3: ['KEN'], year: [1990] });
    const layer = cells.layers.find((l) => l.code === 'WDI_TFR')!;
    const values = [...layer.values].filter((x) => Number.isFinite(x));
    expect(values.length).toBeGreaterThan(5000);
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toBeCloseTo(v, 9);
    await expect(e.getLayerCells({ var: ['WDI_TFR'], iso3: ['KEN'], year: [1990, 1991] })).rejects.toThrow(/'year': this output takes one year/);
  });

  it('the national values (series/national.csv) are read by the first query over a national series, not before', async () => {
    const files = fileTextLoader('public/data');
    const read: string[] = [];
    const eng = createRuntime({ source: fileSourceFactory('public/data'), text: (p, s) => { read.push(p); return files(p, s); }, inflate: nodeInflate }).engine;
    const rows = await eng.getLayer({ var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] }) as Row[];
    expect(rows.filter((r) => r.ADM1_NAME_ALT).length).toBeGreaterThanOrEqual(8);
    expect(read).toContain('series/vi.csv'); // the series' records are known from the start
    expect(read).not.toContain('series/national.csv');
    const ken = table.values.get('GM_LIFE_EXP')!.get(2000)!.get('KEN')!;
    const nat = await eng.getLayer({ var: ['GM_LIFE_EXP'], iso3: ['KEN'], year: [2000] }) as Row[];
    expect(read.filter((p) => p === 'series/national.csv')).toHaveLength(1);
    expect(nat.find((r) => r.ISO3 === 'KEN')?.GM_LIFE_EXP).toBeCloseTo(ken, 9);
  });
});
