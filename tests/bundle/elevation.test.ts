/**
 * ELEVATION cell rule (scripts/data/compute.py etopo5_cells): corner nodes of ETOPO5 at or above
 * 0 m are averaged; cells whose 4 corners are all below 0 m take the shallowest corner, or 0 m when
 * even that is deeper than -155 m (Lake Assal, the lowest land of Africa). So land cells no longer
 * show sea-floor depths, and the negatives left are cells ETOPO5 puts wholly below sea level.
 */
import { describe, expect, it } from 'vitest';
import { SSA_GRID, cellCentre } from '../../src/core/grid';
import { indexAt, readBand, readCatalog, readClassTable } from './bundle.fixture';

const isoLabels = readClassTable('ISO3').labels;

describe('ELEVATION rule', () => {
  it('no cell with LAND_SHARE >= 50 % lies below -200 m, and no cell at all below -155 m', async () => {
    const elev = await readBand('ELEVATION');
    const ls = await readBand('LAND_SHARE');
    let bad = 0;
    let min = Infinity;
    for (let i = 0; i < elev.data.length; i++) {
      if (elev.data[i] === elev.noData) continue;
      if (ls.data[i] >= 50 && elev.data[i] < -200) bad++;
      if (elev.data[i] < min) min = elev.data[i];
    }
    expect(bad).toBe(0);
    expect(min).toBeGreaterThanOrEqual(-155);
    expect(min).toBeLessThan(0);
  });

  it("Lake Assal's cell (42.42E, 11.62N) is in DJI, holds lake water, and reads 325.75 m: ETOPO5 does not resolve the depression", async () => {
    const i = indexAt(42.42, 11.62);
    expect(isoLabels.get((await readBand('ISO3')).data[i])).toBe('DJI');
    expect((await readBand('AREA_WATER')).data[i]).toBeGreaterThan(5);
    // corners 274, 137, 503, 389 m: all on land, so the plain 4-corner mean, unchanged by the rule
    expect((await readBand('ELEVATION')).data[i]).toBe(325.75);
    expect((await readBand('ELEV_ZONE')).data[i]).toBe(2);
  });

  it('the Danakil depression (ETH, 40.0-40.8E, 13.4-14.5N) stays below sea level: -7 to -76 m', async () => {
    const elev = await readBand('ELEVATION');
    const iso = await readBand('ISO3');
    const neg: number[] = [];
    for (let row = 0; row < SSA_GRID.height; row++) {
      for (let col = 0; col < SSA_GRID.width; col++) {
        const [x, y] = cellCentre(SSA_GRID, col, row);
        if (x < 40.0 || x > 40.8 || y < 13.4 || y > 14.5) continue;
        const i = row * SSA_GRID.width + col;
        if (isoLabels.get(iso.data[i]) === 'ETH' && elev.data[i] < 0) neg.push(elev.data[i]);
      }
    }
    expect(neg.length).toBeGreaterThanOrEqual(40);
    expect(Math.min(...neg)).toBe(-76);
    expect(Math.max(...neg)).toBe(-7);
  });

  it('the case counts in varDesc add up to the bundle and match the cells below 0 m', async () => {
    const rec = readCatalog().find((r) => r.varCode === 'ELEVATION')!;
    const num = (re: RegExp) => Number(re.exec(rec.varDesc)![1].replace(/,/g, ''));
    const allLand = num(/bilinear interpolation at the cell centre \(([\d,]+) cells\)/);
    const someLand = num(/leaving the sea-floor corners out \(([\d,]+) cells/);
    const shallowest = num(/highest \(shallowest\) corner \(([\d,]+) cells/);
    const seaLevel = num(/only sea floor there \(([\d,]+) cells/);
    const elev = await readBand('ELEVATION');
    let n = 0;
    let below = 0;
    for (const v of elev.data) {
      if (v === elev.noData) continue;
      n++;
      if (v < 0) below++;
    }
    expect(allLand + someLand + shallowest + seaLevel).toBe(n);
    expect(below).toBe(shallowest); // the shallowest corner of an all-negative cell is below 0 m
    expect(rec.varDesc).not.toMatch(/bathymetry|more than 1000 m/);
  });
});
