/**
 * The catchment query on the embedded bundle (FRICTION_WALK): bands, areas and summaries
 * agree with the engine's own queries over the same cells; several sources; iso3; files.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { catchmentGeoJson, travelTimeCells } from '../../src/core/catchment/files';
import { parseXy, runCatchment, sourcePoints } from '../../src/core/catchment/query';
import { createNodeEngine } from '../../src/node/engine';

const engine = createNodeEngine(join(__dirname, '..', '..', 'public', 'data'));
const NAIROBI: [number, number] = [36.82, -1.29];

describe('runCatchment on the embedded bundle', () => {
  it('bands: cells by their own time; area = sum of AREA_TOTAL; PN14_POP = getLayer over the band ids', async () => {
    const r = await runCatchment(engine, { xy: [NAIROBI], var: ['PN14_POP'] });
    expect(r.friction.varCode).toBe('FRICTION_WALK');
    expect(r.bands.map((b) => b.label)).toEqual(['[0,60]', '(60,120]', '(120,240]', '(240,480]']);
    expect(r.table.rows.map((x) => x.band)).toEqual(r.bands.map((b) => b.label));
    let n = 0;
    for (const [k, b] of r.bands.entries()) {
      expect(b.ids.length).toBeGreaterThan(0);
      const t = await engine.getLayerTable({ var: ['AREA_TOTAL', 'PN14_POP'], ids: b.ids });
      expect(r.table.rows[k].area_km2 as number).toBeCloseTo(t.rows[0].AREA_TOTAL as number, 0);
      expect(r.table.rows[k].PN14_POP).toBe(t.rows[0].PN14_POP);
      expect(r.table.rows[k].cells).toBe(b.ids.length);
      n += b.ids.length;
    }
    // every cell with a time in [0, 480] is in exactly one band
    let timed = 0;
    for (let i = 0; i < r.minutes.length; i++) {
      const t = r.minutes[i];
      if (t >= 0 && t <= 480) { timed++; expect(r.band[i]).toBe(t <= 60 ? 0 : t <= 120 ? 1 : t <= 240 ? 2 : 3); }
    }
    expect(timed).toBe(n);
    // the source cell: 0 minutes, first band
    const src = r.sources[0].cell;
    expect(r.bands[0].ids).toContain(src);
  });

  it('several sources: the nearest wins; each source cell is at 0 minutes', async () => {
    const kampala: [number, number] = [32.58, 0.32];
    const one = await runCatchment(engine, { xy: [NAIROBI], minutes: [0, 240] });
    const two = await runCatchment(engine, { xy: [NAIROBI, kampala], minutes: [0, 240] });
    expect(two.bands[0].ids.length).toBeGreaterThan(one.bands[0].ids.length);
    expect(two.bands[0].ids).toEqual(expect.arrayContaining(one.bands[0].ids));
  });

  it('iso3 restricts the cells counted (travel still crosses borders)', async () => {
    // Busia, on the Kenya-Uganda border
    const all = await runCatchment(engine, { xy: [[34.11, 0.46]], minutes: [0, 480] });
    const ken = await runCatchment(engine, { xy: [[34.11, 0.46]], minutes: [0, 480], iso3: ['KEN'] });
    const uga = await runCatchment(engine, { xy: [[34.11, 0.46]], minutes: [0, 480], iso3: ['UGA'] });
    expect(ken.bands[0].ids.length).toBeGreaterThan(0);
    expect(uga.bands[0].ids.length).toBeGreaterThan(0);
    expect(ken.bands[0].ids.length + uga.bands[0].ids.length).toBe(all.bands[0].ids.length);
  });

  it('files: the travel-time raster and one GeoJSON MultiPolygon per band', async () => {
    const r = await runCatchment(engine, { wkt: 'POINT(36.82 -1.29)', minutes: [0, 120, 480] });
    const cells = travelTimeCells(r);
    expect(cells.layers[0].code).toBe('TRAVEL_TIME');
    expect(cells.mask.reduce((a, b) => a + b, 0)).toBe(r.bands[0].ids.length + r.bands[1].ids.length);
    const g = JSON.parse(catchmentGeoJson(r));
    expect(g.features).toHaveLength(2);
    expect(g.features[0].properties.band).toBe('[0,120]');
    const ring = g.features[0].geometry.coordinates[0][0];
    expect(ring[0]).toEqual(ring[ring.length - 1]);
  });

  it('bad input names the argument', async () => {
    await expect(runCatchment(engine, { xy: [[100, 50]] })).rejects.toThrow(/'xy'.*outside the grid/);
    await expect(runCatchment(engine, { xy: [[45, -10]] })).rejects.toThrow(/'xy'.*cannot cross/);
    await expect(runCatchment(engine, { xy: [NAIROBI], friction: 'ELEVATION' })).rejects.toThrow(/'friction'.*not a friction layer/);
    await expect(runCatchment(engine, { xy: [NAIROBI], friction: 'NOPE' })).rejects.toThrow(/'friction'.*unknown/);
    await expect(runCatchment(engine, { xy: [NAIROBI], minutes: [0, 60, 60] })).rejects.toThrow(/'minutes'/);
    await expect(runCatchment(engine, { wkt: 'POLYGON((36 -1, 37 -1, 37 0, 36 -1))' })).rejects.toThrow(/'wkt' must be a POINT/);
    expect(() => parseXy([1, 2, 3])).toThrow(/'xy'/);
    expect(() => parseXy(Array(1001).fill([36, -1]))).toThrow(/'xy'.*at most 1000/);
    expect(parseXy([36.8, -1.3])).toEqual([[36.8, -1.3]]);
    expect(parseXy([[36.8, -1.3], [37, 0]])).toEqual([[36.8, -1.3], [37, 0]]);
    expect(() => sourcePoints({})).toThrow(/'xy'/);
  });
});
