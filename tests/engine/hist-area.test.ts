/**
 * The table builder's histogram (src/app/panels/hist.ts) on the real bundle: its cell counts
 * are the engine's `hist` statistic, and its area per bin (each cell's WGS84 area from its
 * latitude) is the sum of the bundle's AREA_TOTAL layer over the cells of the bin.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { cellAreaKm2, cellHistograms } from '../../src/app/panels/hist';

const real = createNodeEngine(join(__dirname, '../../public/data'));

describe('histogram: counts as the engine, area as AREA_TOTAL', () => {
  for (const value of ['ELEVATION', 'PN14_LIFEEXP']) {
    test(`${value}, Kenya and Ethiopia`, async () => {
      const iso3 = ['KEN', 'ETH'];
      const cells = await real.getLayerCells({ var: [value], iso3 });
      const area = await real.getLayerCells({ var: ['AREA_TOTAL'], iso3 });
      expect(area.grid).toEqual(cells.grid);
      const hs = cellHistograms(cells, iso3.map((c) => ({ name: c, members: new Set([c]) })));
      const rows = await real.getLayer({ var: [value], iso3, stats: ['hist', 'min', 'max'] }) as Array<Record<string, unknown>>;
      for (const [k, code] of iso3.entries()) {
        const row = rows.find((r) => r.ISO3 === code)!;
        const h = hs[k];
        const counts = h.bins.map((b) => b.cells);
        while (counts.length < 10) counts.push(0); // min = max: one bin here, the first of ten in the engine
        expect(counts.join('|')).toBe(row[`${value}_hist`]);
        // per bin: the AREA_TOTAL layer summed over the bin's cells (float32 values, so 1e-5 relative)
        const isoKey = cells.keys!.find((x) => x.code === 'ISO3')!;
        const label = new Map(isoKey.classes!.map((c) => [c.value, c.label]));
        const want = new Array<number>(10).fill(0);
        const w = (h.max - h.min) / 10;
        const v = cells.layers[0].values;
        for (let i = 0; i < v.length; i++) {
          if (!cells.mask[i] || !Number.isFinite(v[i]) || label.get(isoKey.values[i]) !== code) continue;
          want[w > 0 ? Math.min(9, Math.floor((v[i] - h.min) / w)) : 0] += area.layers[0].values[i];
          expect(Math.abs(area.layers[0].values[i] - cellAreaKm2(cells.grid.rowOffset + Math.floor(i / cells.grid.width)))).toBeLessThan(1e-3);
        }
        h.bins.forEach((b, i) => expect(Math.abs(b.km2 - want[i])).toBeLessThanOrEqual(1e-5 * want[i] + 1e-9));
        if (value !== 'ELEVATION') continue; // PN14_LIFEEXP is one national value: one bin
        // area weighting matters: km² per cell differs between bins (latitudes differ)
        const perCell = h.bins.filter((b) => b.cells > 0).map((b) => b.km2 / b.cells);
        expect(Math.max(...perCell) - Math.min(...perCell)).toBeGreaterThan(0.01);
      }
    }, 60_000);
  }
});
