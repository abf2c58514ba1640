/**
 * ELEVATION cell rule (scripts/data/compute.py etopo5_cells): corner nodes of ETOPO5 at or above
 * 0 m are averaged; cells whose 4 corners are all below 0 m take the shallowest corner, unless even
 * that is deeper than -155 m (Lake Assal, the lowest land of Africa): then ETOPO5 has only sea floor
 * there, the elevation of the cell's land is unknown, and the cell is no-data (no value is made up),
 * as are its ELEV_ZONE, SLOPE and TRI. So land cells show no sea-floor depths, and the negatives
 * left are cells ETOPO5 puts wholly below sea level.
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

  it('the case counts in varDesc add up to the bundle and match the cells below 0 m and the no-data cells', async () => {
    const rec = readCatalog().find((r) => r.varCode === 'ELEVATION')!;
    const num = (re: RegExp) => Number(re.exec(rec.varDesc)![1].replace(/,/g, ''));
    const allLand = num(/bilinear interpolation at the cell centre \(([\d,]+) cells\)/);
    const someLand = num(/leaving the sea-floor corners out \(([\d,]+) cells/);
    const shallowest = num(/highest \(shallowest\) corner \(([\d,]+) cells/);
    const noData = num(/such cells are no-data \(([\d,]+) cells/);
    const elev = await readBand('ELEVATION');
    const iso = await readBand('ISO3');
    let n = 0;
    let below = 0;
    let nd = 0;
    for (let i = 0; i < elev.data.length; i++) {
      if (iso.data[i] === iso.noData) continue;
      const v = elev.data[i];
      if (v === elev.noData) {
        nd++;
        continue;
      }
      n++;
      if (v < 0) below++;
    }
    expect(n + nd).toBe(294_505);
    expect(allLand + someLand + shallowest).toBe(n);
    expect(noData).toBe(nd);
    expect(nd).toBe(188);
    expect(below).toBe(shallowest); // the shallowest corner of an all-negative cell is below 0 m
    expect(rec.varDesc).not.toMatch(/bathymetry|more than 1000 m|0 m, sea level, when/);
  });

  it('the cells where ETOPO5 has only sea floor are no-data in ELEVATION, ELEV_ZONE, SLOPE and TRI, with the per-country counts of varDesc', async () => {
    const iso = await readBand('ISO3');
    const bands = await Promise.all(['ELEVATION', 'ELEV_ZONE', 'SLOPE', 'TRI'].map((c) => readBand(c)));
    const [elev] = bands;
    const perCountry = new Map<string, number>();
    for (let i = 0; i < elev.data.length; i++) {
      if (iso.data[i] === iso.noData || elev.data[i] !== elev.noData) continue;
      for (const b of bands) expect(b.data[i]).toBe(b.noData);
      const c = isoLabels.get(iso.data[i])!;
      perCountry.set(c, (perCountry.get(c) ?? 0) + 1);
    }
    expect(Object.fromEntries(perCountry)).toEqual({
      CPV: 44, MDG: 23, SYC: 19, SDN: 19, TZA: 19, COM: 15, MOZ: 15, MUS: 10, STP: 10, ERI: 7, SOM: 3,
      DJI: 1, GNQ: 1, KEN: 1, ZAF: 1,
    });
    const desc = readCatalog().find((r) => r.varCode === 'ELEVATION')!.varDesc;
    expect(desc).toContain('Cabo Verde 44, Madagascar 23, Seychelles 19, Sudan 19, United Republic of Tanzania 19, Comoros 15');
    expect(desc).toMatch(/elevation of the land in the cell is unknown at this resolution/);
    for (const code of ['ELEV_ZONE', 'SLOPE', 'TRI']) {
      const d = readCatalog().find((r) => r.varCode === code)!.varDesc;
      expect({ code, says: /The 188 cells without ELEVATION \(ETOPO5 has only sea floor at their 4 corners/.test(d) })
        .toEqual({ code, says: true });
    }
    // Fogo, Cabo Verde (Pico do Fogo, 2,829 m): all 4 ETOPO5 corners are -726 to -2,224 m, so no value;
    // the cell is still in the bundle, wholly land in GSHHG, and every other layer has its value.
    const i = indexAt(-24.375, 14.958);
    expect(isoLabels.get(iso.data[i])).toBe('CPV');
    for (const b of bands) expect(b.data[i]).toBe(b.noData);
    expect((await readBand('LAND_SHARE')).data[i]).toBe(100);
    expect((await readBand('AREA_TOTAL')).data[i]).toBeGreaterThan(80);
  });

  it('a cell with ELEVATION next to a no-data cell still has SLOPE and TRI (the no-data cell enters its window at 0 m, like the sea)', async () => {
    const elev = await readBand('ELEVATION');
    const slope = await readBand('SLOPE');
    const tri = await readBand('TRI');
    let withNoDataNeighbour = 0;
    const { width } = SSA_GRID;
    const iso = await readBand('ISO3');
    for (let i = 0; i < elev.data.length; i++) {
      if (iso.data[i] === iso.noData || elev.data[i] === elev.noData) continue;
      const col = i % width;
      let touches = false;
      for (const d of [-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1]) {
        const j = i + d;
        const cj = j % width;
        if (j < 0 || j >= elev.data.length || Math.abs(cj - col) > 1) continue;
        if (iso.data[j] !== iso.noData && elev.data[j] === elev.noData) touches = true;
      }
      if (!touches) continue;
      withNoDataNeighbour++;
      expect(slope.data[i]).not.toBe(slope.noData);
      expect(tri.data[i]).not.toBe(tri.noData);
    }
    expect(withNoDataNeighbour).toBeGreaterThan(100);
  });
});
