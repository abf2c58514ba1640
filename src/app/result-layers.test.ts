import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openBundle } from '../core/bundle';

// The map raster worker's class tables, read from the shipped bundle (public/data) with the bundle's own parsers.
const DATA = join(__dirname, '../../public/data');
const bundle = openBundle({ text: async (rel: string) => readFileSync(join(DATA, rel), 'utf8') });
vi.mock('./bundle', () => ({ DATA_BASE: 'data/' })); // the page's data URL (a DOM global); the by-country branch reads no bundle file list
vi.mock('./services', () => ({ getRaster: () => ({ classTable: (code: string) => bundle.classTable(code) }) }));

const { NO_SLICE_GREY, SLICE_CELLS_COLOUR, summaryChoropleth } = await import('./result-layers');

/** The raster value of each label in the shipped classes/ISO3.csv, read line by line (not through the app's parsers). */
function isoValues(): Map<string, number> {
  const lines = readFileSync(join(DATA, 'classes/ISO3.csv'), 'utf8').trim().split('\n').slice(1);
  return new Map(lines.map((l) => { const [v, label] = l.split(','); return [label, Number(v)]; }));
}

describe('summaryChoropleth by country, one interval on the map', () => {
  // ELEVATION mean by ISO3 x ELEVATION interval, the (2000, 6000] interval mapped: Kenya and Tanzania have it, Burundi of the summary not
  const units = [
    { ISO3: 'KEN', ELEVATION_by: '(2000,6000]', ELEVATION: 2400 },
    { ISO3: 'KEN', ELEVATION_by: '(0,2000]', ELEVATION: 600 },
    { ISO3: 'TZA', ELEVATION_by: '(2000,6000]', ELEVATION: 2300 },
    { ISO3: 'TZA', ELEVATION_by: '(0,2000]', ELEVATION: 900 },
  ];
  const slice = { rows: units.filter((u) => u.ELEVATION_by === '(2000,6000]'), units, by: ['ISO3'], vars: ['ELEVATION'], value: 'ELEVATION', slice: '2,000-6,000 m', sliceCells: { code: 'ELEVATION', lo: 2000, hi: 6000 } };

  it("paints the interval's cells only inside the summary's countries: a domain on ISO3 with exactly their raster values", async () => {
    const c = await summaryChoropleth(slice, [], new Map());
    const iso = isoValues();
    expect(c?.level).toBe(0);
    expect(c?.sliceCells).toMatchObject({ code: 'ELEVATION', lo: 2000, hi: 6000, label: '2,000-6,000 m' });
    expect(c?.sliceCells?.domain).toHaveLength(1);
    expect(c?.sliceCells?.domain[0].code).toBe('ISO3');
    expect([...c!.sliceCells!.domain[0].values].sort((a, b) => a - b)).toEqual([iso.get('KEN'), iso.get('TZA')].sort((a, b) => a! - b!));
    expect(c?.legend.at(-1)?.color).toBe(SLICE_CELLS_COLOUR);
  });

  it('a country of the summary without the interval is grey (with a legend entry) and inside the domain; no interval: no cells', async () => {
    const withBdi = { ...slice, units: [...units, { ISO3: 'BDI', ELEVATION_by: '(0,2000]', ELEVATION: 1500 }] };
    const c = await summaryChoropleth(withBdi, [], new Map());
    expect(c?.pairs).toContainEqual(['BDI', NO_SLICE_GREY]);
    expect(c?.legend.some((e) => e.color === NO_SLICE_GREY)).toBe(true);
    expect(c?.sliceCells?.domain[0].values).toContain(isoValues().get('BDI'));
    const plain = await summaryChoropleth({ rows: units.slice(0, 1), by: ['ISO3'], vars: ['ELEVATION'], value: 'ELEVATION' }, [], new Map());
    expect(plain?.sliceCells).toBeUndefined();
    expect(plain?.pairs.map(([u]) => u)).toEqual(['KEN']);
  });
});
