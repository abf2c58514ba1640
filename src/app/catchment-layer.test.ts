import { describe, expect, it } from 'vitest';
import { SSA_GRID, type GridDef } from '../core/grid';
import type { CatchmentResult } from '../core/api';
import { legendOf } from '../core/map/palette';
import { bandColours, catchmentExportInfo, catchmentLayer, catchmentLayerKey, SOURCE_HUES, UNCOVERED_COLOUR } from './catchment-layer';

/** A made-up 2 x 1 result window at the grid's top-left corner (fixture). */
const W: GridDef = { ...SSA_GRID, width: 2, height: 1, xmax: SSA_GRID.xmin + 2 / 12, ymin: SSA_GRID.ymax - 1 / 12 };
const bands = [{ label: '[0,60]' }, { label: '(60,120]' }];
const res = (sources: number, source: number[], band: number[]) => ({
  grid: W, bands, band: Int8Array.from(band), source: Int16Array.from(source),
  sources: Array.from({ length: sources }, (_, i) => ({ name: `S${i + 1}`, lon: 0, lat: 0, cell: 0 })),
}) as unknown as CatchmentResult;

describe('catchmentLayer (issue 24)', () => {
  it('one source: the band index, one legend entry per band', () => {
    const { values, palette } = catchmentLayer(res(1, [0, 0], [1, -1]), SSA_GRID);
    expect([values[0], values[1]]).toEqual([1, NaN]);
    expect(palette.labels).toEqual(['[0,60] min', '(60,120] min']);
  });
  it('the "within" view labels each shade by its band\'s upper limit (same colours); cumulative bands keep their labels', () => {
    const r = { ...res(2, [1, 0], [0, 1]), bands: [{ label: '[0,60]', toMinutes: 60 }, { label: '(60,120]', toMinutes: 120 }] } as unknown as CatchmentResult;
    const within = catchmentLayer(r, SSA_GRID, 'within').palette;
    expect(within.labels).toEqual(['S1: ≤ 60 min', 'S1: ≤ 120 min', 'S2: ≤ 60 min', 'S2: ≤ 120 min']);
    expect(within.colors).toEqual(catchmentLayer(r, SSA_GRID, 'band').palette.colors);
    const cum = { ...r, cumulative: true, bands: [{ label: '[0,60]', toMinutes: 60 }, { label: '[0,120]', toMinutes: 120 }] } as unknown as CatchmentResult;
    expect(catchmentLayer(cum, SSA_GRID, 'within').palette.labels).toEqual(['S1: [0,60] min', 'S1: [0,120] min', 'S2: [0,60] min', 'S2: [0,120] min']);
  });
  it('marketsheds: value = source x bands + band, one hue per source, bands as lighter shades of it', () => {
    const { values, palette } = catchmentLayer(res(2, [1, 0], [0, 1]), SSA_GRID);
    expect([values[0], values[1]]).toEqual([2, 1]);
    expect(palette.labels).toEqual(['S1: [0,60] min', 'S1: (60,120] min', 'S2: [0,60] min', 'S2: (60,120] min']);
    expect(palette.colors[0]).toBe(SOURCE_HUES[0]);
    expect(palette.colors[2]).toBe(SOURCE_HUES[1]);
    expect(palette.colors[1]).not.toBe(palette.colors[0]);
  });
  it('per-source chart colours are the map\'s: the source\'s hue, its bands as shades', () => {
    const r = res(2, [1, 0], [0, 1]);
    const { palette } = catchmentLayer(r, SSA_GRID);
    expect(bandColours(r, 0)).toEqual(palette.colors.slice(0, 2));
    expect(bandColours(r, 1)).toEqual(palette.colors.slice(2, 4));
    expect(bandColours(res(1, [0, 0], [0, 1]), 0)).toEqual(catchmentLayer(res(1, [0, 0], [0, 1]), SSA_GRID).palette.colors);
  });
  it('coverage: covered cells in their source\'s shades, cells within reach not covered in grey (one source too)', () => {
    const r = { ...res(1, [0, 0], [0, 1]), breaks: [0, 60, 120], coverage: { coveredCells: Uint8Array.from([1, 0]), sources: [{ capacity: 5000 }] } } as unknown as CatchmentResult;
    const { values, palette } = catchmentLayer(r, SSA_GRID);
    expect([values[0], values[1]]).toEqual([0, 2]);
    expect(palette.colors[0]).toBe(SOURCE_HUES[0]);
    expect(palette.colors[2]).toBe(UNCOVERED_COLOUR);
    expect(palette.labels).toEqual(['S1, covered: [0,60] min', 'S1, covered: (60,120] min', 'Within 120 min, not covered']);
  });
  it('coverage: the legend lists covered shades only for sources with a capacity (a source without one covers no cell)', () => {
    // S1 has a capacity, S2 none (the panel sends 0): S2's cells within reach are all grey.
    const r = { ...res(2, [0, 1], [0, 0]), breaks: [0, 60, 120], coverage: { coveredCells: Uint8Array.from([1, 0]), sources: [{ capacity: 5000 }, { capacity: 0 }] } } as unknown as CatchmentResult;
    const { values, palette } = catchmentLayer(r, SSA_GRID);
    expect([values[0], values[1]]).toEqual([0, 4]);
    expect(legendOf(palette)).toEqual([
      { label: 'S1, covered: [0,60] min', color: SOURCE_HUES[0] }, { label: 'S1, covered: (60,120] min', color: palette.colors[1] },
      { label: 'Within 120 min, not covered', color: UNCOVERED_COLOUR },
    ]);
    // the map's value-to-colour order is kept: value 4 is the grey
    expect(palette.colors[4]).toBe(UNCOVERED_COLOUR);
  });
});

describe('catchmentExportInfo (issue 24)', () => {
  const friction = { varCode: 'FRICTION_WALK', varLabel: 'Walking friction surface', sourceMini: 'Tobler 1993, ETOPO5', sources: '' };
  it('one source: travel time from its name; several as marketsheds: from n sources, friction attributed', () => {
    const one = catchmentExportInfo({ ...res(1, [0, 0], [0, 1]), friction, neighbours: 16, marketshed: false } as unknown as CatchmentResult);
    expect(one).toMatchObject({ title: 'Travel time from S1', heading: 'Band, minutes', fileStem: 'catchment' });
    expect(one.subtitle).toBe('Walking friction surface (FRICTION_WALK) · 16 neighbours');
    const three = catchmentExportInfo({ ...res(3, [0, 2], [0, 1]), friction, neighbours: 8, marketshed: true } as unknown as CatchmentResult);
    expect(three.title).toBe('Marketsheds from 3 sources');
    expect(three.attribution).toEqual(['FRICTION_WALK: Tobler 1993, ETOPO5']);
  });
});

describe('catchmentLayerKey', () => {
  const run = (o: Record<string, unknown> = {}) => ({
    ...res(2, [1, 0], [0, 1]), breaks: [0, 60, 120], cumulative: false, marketshed: true, friction: { varCode: 'FRICTION_WALK' }, neighbours: 8, origin: 'cell', ...o,
  }) as unknown as CatchmentResult;
  it('equal for the results of equal runs (a run again keeps the drawn layer), whatever the arrays\' identity', () => {
    const a = run(), b = run();
    expect(a.band).not.toBe(b.band);
    expect(catchmentLayerKey(a)).toBe(catchmentLayerKey(b));
    expect(catchmentLayerKey(a)).toMatch(/^cells:catchment:[0-9a-f]{16}$/);
  });
  it('differs when the sources, bands, friction or capacities differ', () => {
    const k = catchmentLayerKey(run());
    const moved = run({ sources: [{ name: 'S1', lon: 0.1, lat: 0, cell: 0 }, { name: 'S2', lon: 0, lat: 0, cell: 0 }] });
    const renamed = run({ sources: [{ name: 'A', lon: 0, lat: 0, cell: 0 }, { name: 'S2', lon: 0, lat: 0, cell: 0 }] });
    const others = [moved, renamed, run({ breaks: [0, 60, 180] }), run({ cumulative: true }), run({ friction: { varCode: 'FRICTION_MOTOR' } }),
      run({ coverage: { population: { varCode: 'POP_MODEL' }, sources: [{ source: 0, capacity: 5000 }] } }), run({ coverage: { population: { varCode: 'POP_MODEL' }, sources: [{ source: 0, capacity: 6000 }] } })];
    const keys = others.map(catchmentLayerKey);
    expect(new Set([k, ...keys]).size).toBe(others.length + 1);
  });
});
