/**
 * Marketsheds, cumulative bands, 16 neighbours, travel from the point, snapping, coverage
 * with capacity and the downloads (issue 24) on the embedded bundle (FRICTION_WALK); bad
 * input refused before any work (issue 24 "Bad input").
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catchmentGeoJson, COVERED_BY_CODE, travelTimeCells, NEAREST_SOURCE_CODE } from '../../src/core/catchment/files';
import { runCatchment } from '../../src/core/catchment/query';
import { buildPackage } from '../../src/core/package';
import { methodPackage } from '../../src/contract/methods';
import { fromArrayBuffer } from 'geotiff';
import { createNodeEngine } from '../../src/node/engine';

const engine = createNodeEngine(join(__dirname, '..', '..', 'public', 'data'));
const TOWNS: Array<[number, number]> = [[36.82, -1.29], [34.76171, -0.10221], [39.67, -4.05]];
const NAMES = ['Nairobi', 'Kisumu', 'Mombasa'];

describe('marketsheds', () => {
  it('each cell belongs to its nearest source: time = min over one-source runs, source = argmin', async () => {
    const all = await runCatchment(engine, { xy: TOWNS, names: NAMES, minutes: [0, 480], marketshed: true });
    const one = await Promise.all(TOWNS.map((p) => runCatchment(engine, { xy: [p], minutes: [0, 480] })));
    const g = all.grid;
    let checked = 0;
    for (let r = 0; r < g.height; r++) for (let c = 0; c < g.width; c++) {
      const i = r * g.width + c;
      if (Number.isNaN(all.minutes[i])) continue;
      const times = one.map((x) => {
        const cc = c + g.colOffset - x.grid.colOffset, rr = r + g.rowOffset - x.grid.rowOffset;
        return cc >= 0 && rr >= 0 && cc < x.grid.width && rr < x.grid.height ? x.minutes[rr * x.grid.width + cc] : NaN;
      });
      const best = Math.min(...times.map((t) => (Number.isNaN(t) ? Infinity : t)));
      expect(all.minutes[i]).toBeCloseTo(best, 3);
      expect(times[all.source[i]]).toBeCloseTo(best, 3);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(all.sources.map((s) => s.name)).toEqual(NAMES);
  });

  it('rows per source x band equal getLayer over the same cells; the all-sources rows add up', async () => {
    const r = await runCatchment(engine, { xy: TOWNS, names: NAMES, minutes: [0, 120, 480], marketshed: true, var: ['PN14_POP'] });
    expect(r.table.rows).toHaveLength(3 * 2 + 2);
    expect(r.table.columns.slice(0, 3).map((c) => c.name)).toEqual(['source', 'source_id', 'band']);
    const g = r.grid;
    for (let s = 0; s < 3; s++) for (let k = 0; k < 2; k++) {
      const ids: number[] = [];
      for (let i = 0; i < r.band.length; i++) if (r.band[i] === k && r.source[i] === s) ids.push((g.rowOffset + Math.floor(i / g.width)) * 4320 + g.colOffset + (i % g.width));
      const row = r.table.rows[s * 2 + k];
      expect(row).toMatchObject({ source: NAMES[s], source_id: s + 1, cells: ids.length });
      if (ids.length) expect(row.PN14_POP).toBe((await engine.getLayerTable({ var: ['PN14_POP'], ids })).rows[0].PN14_POP);
    }
    for (let k = 0; k < 2; k++) {
      const tot = r.table.rows[6 + k];
      expect(tot.source).toBeUndefined();
      expect(tot.cells).toBe(r.bands[k].ids.length);
      expect(tot.PN14_POP).toBe((await engine.getLayerTable({ var: ['PN14_POP'], ids: r.bands[k].ids })).rows[0].PN14_POP);
    }
  });

  it('cumulative bands: [0,b] holds every cell within b', async () => {
    const plain = await runCatchment(engine, { xy: TOWNS, minutes: [0, 120, 240, 480], var: ['PN14_POP'] });
    const cum = await runCatchment(engine, { xy: TOWNS, minutes: [0, 120, 240, 480], var: ['PN14_POP'], cumulative: true });
    expect(cum.table.rows.map((x) => x.band)).toEqual(['[0,120]', '[0,240]', '[0,480]']);
    let cells = 0;
    for (let k = 0; k < 3; k++) {
      cells += plain.table.rows[k].cells as number;
      expect(cum.table.rows[k].cells).toBe(cells);
      expect(cum.table.rows[k].PN14_POP).toBe((await engine.getLayerTable({ var: ['PN14_POP'], ids: cum.bands[k].ids })).rows[0].PN14_POP);
    }
  });

  it('16 neighbours never give a longer time than 8; origin "point" counts from the point', async () => {
    const m8 = await runCatchment(engine, { xy: [TOWNS[0]], minutes: [0, 600] });
    const m16 = await runCatchment(engine, { xy: [TOWNS[0]], minutes: [0, 600], neighbours: 16 });
    expect(m16.neighbours).toBe(16);
    let shorter = 0;
    for (let i = 0; i < m8.minutes.length; i++) {
      if (Number.isNaN(m8.minutes[i])) continue;
      const c = (i % m8.grid.width) + m8.grid.colOffset - m16.grid.colOffset, r = Math.floor(i / m8.grid.width) + m8.grid.rowOffset - m16.grid.rowOffset;
      const t16 = m16.minutes[r * m16.grid.width + c];
      expect(t16).toBeLessThanOrEqual(m8.minutes[i] + 1e-3);
      if (t16 < m8.minutes[i] - 1) shorter++;
    }
    expect(shorter).toBeGreaterThan(0);
    const pt = await runCatchment(engine, { xy: [TOWNS[0]], minutes: [0, 600], origin: 'point' });
    const src = pt.sources[0].cell;
    const i = ((Math.floor(src / 4320) - pt.grid.rowOffset) * pt.grid.width) + (src % 4320) - pt.grid.colOffset;
    // the source cell is no longer at 0: the time from the point to its centre
    expect(pt.minutes[i]).toBeGreaterThan(0);
    expect(pt.minutes[i]).toBeLessThan(0.75 * 112);
  });
});

describe('snapping (GeoNames points of coastal and lakeside towns)', () => {
  it.each([
    ['Mombasa (39.67, -4.05)', [39.67, -4.05]], ['Mombasa', [39.66359, -4.05466]], ['Kisumu', [34.76171, -0.10221]], ['Dakar', [-17.44406, 14.6937]],
    ['Lagos', [3.39467, 6.45407]], ['Dar es Salaam', [39.26951, -6.82349]], ['Abidjan', [-4.00167, 5.35444]], ['Cape Town', [18.42322, -33.92584]],
  ] as Array<[string, [number, number]]>)('%s works', async (name, p) => {
    const r = await runCatchment(engine, { xy: [p], names: [name], minutes: [0, 240] });
    expect(r.table.rows[0].cells).toBeGreaterThan(0);
    if (r.sources[0].snapped) {
      expect(r.sources[0].snapped.km).toBeLessThan(10 + 6.6);
      expect(r.notes.join('\n')).toMatch(new RegExp(`${name.replace(/[()]/g, '\\$&')} moved \\d+\\.\\d km to the nearest land cell`));
    }
  });

  // Since FRICTION_WALK counts a cell with any land as passable (scripts/data/friction.py), the
  // points above lie on passable cells; (39.75, -4.1), in the sea 9 km east of Mombasa island, on
  // an all-water cell, still moves (to the cell centred at 39.7083, -4.0417, part land).
  it('a point off Mombasa (39.75, -4.1) moves about 8 km; with snap_km = 0 it is a 400 naming xy and the row, 4 decimals', async () => {
    const r = await runCatchment(engine, { xy: [[36.82, -1.29], [39.75, -4.1]], minutes: [0, 60] });
    expect(r.sources[1].snapped!.km).toBeGreaterThan(5);
    expect(r.sources[1].snapped!.km).toBeLessThan(10);
    await expect(runCatchment(engine, { xy: [[36.82, -1.29], [39.75, -4.1]], minutes: [0, 60], snapKm: 0 })).rejects.toThrow(/^'xy' row 2: the point \(39\.7500, -4\.1000\) lies on a no-data cell .* within snap_km = 0 km/);
  });
});

describe('coverage with capacity', () => {
  it('takes each source\'s cells in travel-time order up to its capacity', async () => {
    const r = await runCatchment(engine, { xy: TOWNS, names: NAMES, minutes: [0, 480], capacity: [50_000, 1e9, 0], population: 'PN14_POP' });
    const cov = r.coverage!;
    expect(r.marketshed).toBe(true);
    expect(cov.sources.map((s) => s.covered)).toEqual([50_000, cov.sources[1].inReach, 0]);
    expect(cov.uncovered).toBeCloseTo(cov.inReach - cov.covered, 6);
    expect(cov.sources[0].minutes).toBeLessThan(480);
    // covered cells: the nearest of Nairobi's marketshed, then none of Mombasa's
    let n0 = 0;
    for (let i = 0; i < cov.coveredCells.length; i++) if (cov.coveredCells[i]) { expect(r.source[i]).not.toBe(2); if (r.source[i] === 0) { n0++; expect(r.minutes[i]).toBeLessThanOrEqual(cov.sources[0].minutes); } }
    expect(n0).toBe(cov.sources[0].cells);
    expect(r.table.rows[0]).toMatchObject({ capacity: 50000, population_covered: 50000 });
    // the download's coverage raster: the covering source's source_id, 4 = within reach, not covered
    const cells = travelTimeCells(r);
    const by = cells.layers.find((l) => l.code === COVERED_BY_CODE)!;
    expect(by.classes!.map((c) => c.label)).toEqual([...NAMES.map((n) => `covered by ${n}`), 'within reach, not covered']);
    let c1 = 0, c4 = 0;
    for (let i = 0; i < by.values.length; i++) {
      if (by.values[i] === 1) c1++;
      if (by.values[i] === 4) { c4++; expect(cov.coveredCells[i]).toBe(0); }
      if (cov.coveredCells[i]) expect(by.values[i]).toBe(r.source[i] + 1);
    }
    expect(c1).toBe(cov.sources[0].cells);
    expect(c4).toBeGreaterThan(0);
    expect(cells.meta.map((m) => m.varCode)).toContain(COVERED_BY_CODE);
  });
});

describe('downloads', () => {
  it('the nearest-source raster (source_id, names as classes) and GeoJSON per source x band', async () => {
    const r = await runCatchment(engine, { xy: TOWNS, names: NAMES, minutes: [0, 120, 480], marketshed: true });
    const cells = travelTimeCells(r);
    expect(cells.layers.map((l) => l.code)).toEqual(['TRAVEL_TIME', NEAREST_SOURCE_CODE]);
    expect(cells.layers[1].classes!.map((c) => c.label)).toEqual(NAMES);
    const ids = new Set([...cells.layers[1].values].filter((v) => !Number.isNaN(v)));
    expect([...ids].sort()).toEqual([1, 2, 3]);
    const gj = JSON.parse(catchmentGeoJson(r));
    expect(gj.features.map((f: { properties: { source?: string; band: string } }) => `${f.properties.source}:${f.properties.band}`)).toEqual([
      'Nairobi:[0,120]', 'Nairobi:(120,480]', 'Kisumu:[0,120]', 'Kisumu:(120,480]', 'Mombasa:[0,120]', 'Mombasa:(120,480]',
    ]);
  });
});

/** Values of one band of a package's raster file, row-major, no-data as NaN. */
async function rasterBand(files: Array<{ name: string; bytes: Uint8Array }>, format: string, code: string): Promise<number[]> {
  const file = (re: RegExp) => files.find((f) => re.test(f.name))!;
  if (format === 'tif') {
    const b = file(new RegExp(`-${code}-.*\\.tif$`)).bytes;
    const img = await (await fromArrayBuffer(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)).getImage();
    const nd = Number(img.getGDALNoData());
    const [band] = (await img.readRasters()) as unknown as ArrayLike<number>[];
    return Array.from(band, (v) => (v === nd ? NaN : v));
  }
  if (format === 'asc') {
    const lines = new TextDecoder().decode(file(new RegExp(`-${code}-.*\\.asc$`)).bytes).split(/\r?\n/);
    const nd = Number(lines[5].trim().split(/\s+/)[1]);
    return lines.slice(6).join(' ').trim().split(/\s+/).map(Number).map((v) => (v === nd ? NaN : v));
  }
  const grd = new TextDecoder().decode(file(/\.grd$/).bytes);
  const width = Number(/ncols\s*=\s*(\d+)/.exec(grd)![1]), height = Number(/nrows\s*=\s*(\d+)/.exec(grd)![1]);
  const names = /layername\s*=\s*(.*)/.exec(grd)![1].trim().split(':');
  const gri = file(/\.gri$/).bytes, k = names.indexOf(code);
  const dv = new DataView(gri.buffer, gri.byteOffset, gri.byteLength);
  const size = gri.byteLength / (width * height * names.length);
  return Array.from({ length: width * height }, (_, i) => {
    const at = ((Math.floor(i / width) * names.length + k) * width + (i % width)) * size;
    const v = size === 8 ? dv.getFloat64(at, true) : dv.getFloat32(at, true);
    return v < -1e30 ? NaN : v;
  });
}

describe('"within" columns in the table (every download)', () => {
  it('running sums over each source\'s bands and the all-sources rows; the sources add up to all', async () => {
    const r = await runCatchment(engine, { xy: TOWNS, names: NAMES, minutes: [0, 60, 120, 240], marketshed: true, var: ['PN14_POP'] });
    const names = r.table.columns.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['cells_within', 'area_km2_within', 'PN14_POP_within']));
    expect(names.indexOf('PN14_POP_within')).toBe(names.indexOf('PN14_POP') + 1);
    const groups = [...NAMES, undefined].map((n) => r.table.rows.filter((x) => x.source === n));
    for (const g of groups) {
      expect(g).toHaveLength(3);
      let acc = 0, cells = 0;
      for (const x of g) {
        acc += Number(x.PN14_POP ?? 0); cells += Number(x.cells);
        expect(x.PN14_POP_within).toBeCloseTo(acc, 6);
        expect(x.cells_within).toBe(cells);
      }
    }
    const lastOf = (g: typeof r.table.rows) => Number(g[g.length - 1].PN14_POP_within);
    expect(lastOf(groups[3])).toBeCloseTo(groups.slice(0, 3).reduce((a, g) => a + lastOf(g), 0), 0);
    // cumulative bands are "within" figures already: no extra columns
    const cum = await runCatchment(engine, { xy: TOWNS.slice(0, 1), minutes: [0, 60, 120], cumulative: true, var: ['PN14_POP'] });
    expect(cum.table.columns.map((c) => c.name)).not.toContain('PN14_POP_within');
  });
});

describe('NEAREST_SOURCE across formats', () => {
  it('tif, asc and grd hold the same 1-based source_id per cell as the CSV and meta.csv', async () => {
    const args = { xy: TOWNS, names: NAMES, minutes: [0, 120], marketshed: true, var: ['PN14_POP'] };
    const cells = travelTimeCells(await runCatchment(engine, { ...args, minutes: [0, 120] }));
    const want = Array.from(cells.layers[1].values);
    const got: Record<string, number[]> = {};
    for (const format of ['tif', 'asc']) {
      const p = await buildPackage(engine, { ...methodPackage('catchment', args), format });
      got[format] = await rasterBand(p.files, format, NEAREST_SOURCE_CODE);
      // file names say what the files are: the friction layer and marketshed, not the default area
      expect(p.files.map((f) => f.name)).toContain(`catchment-${NEAREST_SOURCE_CODE}-FRICTION_WALK-marketshed.${format}`);
    }
    const grd = await buildPackage(engine, { ...methodPackage('catchment', { ...args, var: undefined }), format: 'grd' });
    got.grd = await rasterBand(grd.files, 'grd', NEAREST_SOURCE_CODE);
    for (const [format, v] of Object.entries(got)) {
      expect(v.length, format).toBe(want.length);
      expect(new Set(v.filter((x) => !Number.isNaN(x))), format).toEqual(new Set([1, 2, 3]));
      for (let i = 0; i < v.length; i++) if (!Number.isNaN(want[i]) || !Number.isNaN(v[i])) expect(v[i], `${format} cell ${i}`).toBe(want[i]);
    }
    const csv = await buildPackage(engine, { ...methodPackage('catchment', args), format: 'csv' });
    const text = new TextDecoder().decode(csv.files[0].bytes);
    const rows = text.trim().split('\n').map((l) => l.split(','));
    const col = rows[0].indexOf('"source_id"') >= 0 ? rows[0].indexOf('"source_id"') : rows[0].indexOf('source_id');
    expect(new Set(rows.slice(1).map((r) => Number(r[col])).filter((x) => x > 0))).toEqual(new Set([1, 2, 3]));
    const meta = new TextDecoder().decode(grd.files.find((f) => f.name === 'meta.csv')!.bytes);
    expect(meta).toContain('The 1-based source_id of the source nearest');
  });
});

describe('bad input: 400 naming the argument and the row, before any work', () => {
  const bad = (args: Parameters<typeof runCatchment>[1], re: RegExp) => expect(runCatchment(engine, args)).rejects.toThrow(re);
  it.each([
    ['a point outside the grid', { xy: [[36.82, -1.29], [100, 50]] }, /^'xy' row 2: the point \(100\.0000, 50\.0000\) lies outside the grid/],
    ['a point in the sea beyond snap_km', { xy: [[45, -10]] }, /^'xy' row 1: the point \(45\.0000, -10\.0000\) lies on a no-data cell .* snap_km = 10 km/],
    ['the same point twice', { xy: [[36.82, -1.29], [34.76, -0.1], [36.82, -1.29]] }, /^'xy' rows 1 and 3 are the same point/],
    ['1,001 sources', { xy: Array.from({ length: 1001 }, (_, i) => [20 + i / 100, 0] as [number, number]) }, /^'xy' gives 1001 source points; at most 1000/],
    ['a name over 200 characters', { xy: TOWNS, names: ['a', 'b'.repeat(201), 'c'] }, /^'names' row 2: is 201 characters long; at most 200/],
    ['a repeated name', { xy: TOWNS, names: ['a', 'b', 'a'] }, /^'names' row 3: 'a' is also the name of row 1/],
    ['a negative capacity', { xy: TOWNS, capacity: [1, -1, 2] }, /^'capacity' row 2: must be a number of people >= 0, got -1/],
    ['a capacity that is not a number', { xy: TOWNS, capacity: [1, NaN, 2] }, /^'capacity' row 2: .* got NaN/],
    ['neighbours 4', { xy: TOWNS, neighbours: 4 as 8 }, /^'neighbours': must be 8 or 16/],
    ['101 breaks', { xy: TOWNS, minutes: Array.from({ length: 101 }, (_, i) => i) }, /^'minutes' gives 101 breaks; at most 100/],
  ] as Array<[string, Parameters<typeof runCatchment>[1], RegExp]>)('%s', async (_, args, re) => {
    await bad({ minutes: [0, 60], ...args }, re);
  });
});
