import { describe, expect, it } from 'vitest';
import { CELLS_KEN, FIXED_NOW, FIXTURE_META } from '../../../tests/formats/formats.fixture';
import { nodeRasterizer } from '../../../tests/formats/render.fixture';
import { genFile } from './index';
import { renderPlot } from './graphics';

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47];
const basemap = { type: 'FeatureCollection' as const, attribution: 'Outline: fixture', features: [{ type: 'Feature' as const, properties: {}, geometry: { type: 'Polygon', coordinates: [[[36.1, 0.2], [36.35, 0.25], [36.3, 0.45], [36.1, 0.2]]] } }] };

describe('plot and hist', () => {
  it('draws a map with title, legend from the catalog, outline and attribution', () => {
    const svg = renderPlot({ cells: CELLS_KEN, layer: CELLS_KEN.layers[0], rec: FIXTURE_META[0], basemap, now: FIXED_NOW });
    expect(svg).toContain('Elevation (fixture) (m)');
    expect(svg).toContain('fill="#fdae61"');
    expect(svg).toContain('(1500,3000]');
    expect(svg).toContain('data:image/png;base64,');
    expect(svg).toMatch(/<path d="M[^"]+Z"/);
    expect(svg).toContain('Outline: fixture');
    expect(svg).not.toContain('ColorBrewer');
    const pal = renderPlot({ cells: CELLS_KEN, layer: CELLS_KEN.layers[0], rec: FIXTURE_META[0], pal: 'Blues', now: FIXED_NOW });
    expect(pal).toContain('ColorBrewer');
    expect(pal).toContain('#2171b5'); // Blues, 4 classes: eff3ff bdd7e7 6baed6 2171b5
  });

  it('renders plot and hist as SVG + PNG files and graphics', async () => {
    for (const format of ['plot', 'hist']) {
      const r = await genFile({ format, method: 'getLayer', args: { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['KEN'] }, cells: CELLS_KEN, meta: FIXTURE_META, now: FIXED_NOW, basemap, rasterize: nodeRasterizer });
      expect(r.files.map((f) => f.name)).toEqual(['ELEVATION', 'ELEV_ZONE'].flatMap((v) => [`getLayer-${v}-KEN-${format}.svg`, `getLayer-${v}-KEN-${format}.png`]));
      expect(r.graphics).toHaveLength(2);
      expect(Array.from(r.graphics[0].png.slice(0, 4))).toEqual(PNG_SIG);
      expect(r.graphics[0].png.length).toBeGreaterThan(5000);
      if (format === 'hist') {
        // ELEVATION has dec 0: statistics are printed with 0 decimals.
        for (const s of ['N', 'Min.', '1st Qu.', 'Median', 'Mean', '3rd Qu.', 'Max.', '17', '-12', '1299', '1702', '2950']) expect(r.graphics[0].svg).toContain(`>${s}<`);
        expect(r.graphics[0].svg).not.toContain('>1298.8<');
        // ELEV_ZONE is a class layer: counts per class label with shares, no numeric statistics.
        const zone = r.graphics[1].svg;
        for (const s of ['Lowland (&lt; 500 m)', 'Midland (500-1500 m)', 'Highland (&gt; 1500 m)', '4 (23.5 %)', '5 (29.4 %)', '8 (47.1 %)']) expect(zone).toContain(`>${s}<`);
        expect(zone).toContain('N = 17');
        for (const s of ['Mean', 'Median', 'Min.']) expect(zone).not.toContain(`>${s}<`);
        for (const c of ['#1a9850', '#fee08b', '#d73027']) expect(zone.toLowerCase()).toContain(`fill="${c}"`);
      }
    }
  });
});

describe('plot of a zonal map (by)', () => {
  // PN14_POP-like sums per ADM1 unit: every cell carries its unit's sum, far above the per-cell breaks.
  const unitSum: Record<number, number> = { 101: 5_000_000, 102: 2_500_000, 103: 10_250_000 };
  const adm1 = CELLS_KEN.keys![1].values;
  const layer = { code: 'AREA_TOTAL', type: 'continuous' as const, values: Float64Array.from(adm1, (u) => (Number.isNaN(u) ? NaN : unitSum[u])) };
  const cells = { ...CELLS_KEN, layers: [layer] };
  const rec = { ...FIXTURE_META[1], classBreaks: '0|100|1000', classLabels: '0 - 100|100 - 1000', classColors: '#eeeeee|#111111' };
  const admin1 = { type: 'FeatureCollection' as const, attribution: 'Admin-1: fixture', features: [{ type: 'Feature' as const, properties: {}, geometry: { type: 'Polygon', coordinates: [[[36.05, 0.3], [36.4, 0.3], [36.4, 0.35], [36.05, 0.3]]] } }] };

  it('colours by classes of the domain values present, says "by <domain>" and draws admin-1 outlines', () => {
    const svg = renderPlot({ cells, layer, rec, basemap, admin1, by: [{ code: 'ADM1_NAME_ALT', rec: FIXTURE_META[3] }], now: FIXED_NOW });
    expect(svg).toContain('Total area (fixture) (km2): sum by Admin-1 unit (fixture)');
    // 3 distinct sums: one class each, labelled with the value, not the catalog's per-cell breaks.
    for (const l of ['2,500,000.0', '5,000,000.0', '10,250,000.0']) expect(svg).toContain(`>${l}<`);
    expect(svg).not.toContain('100 - 1000');
    expect(svg).toContain('km2 per ADM1_NAME_ALT');
    expect(svg).toContain('stroke="#666666"');
    expect(svg).toContain('Admin-1: fixture');
  });

  it('makes 5-7 quantile classes when there are many domains, and skips admin-1 outlines without them', () => {
    const many = { ...layer, values: Float64Array.from({ length: 20 }, (_, i) => (i < 18 ? (i + 1) * 1000 : NaN)) };
    const svg = renderPlot({ cells: { ...cells, layers: [many] }, layer: many, rec, basemap, by: [{ code: 'ADM1_NAME_ALT' }], now: FIXED_NOW });
    const legend = [...svg.matchAll(/font-size="12">([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(legend).toHaveLength(7);
    expect(legend[0]).toBe('1,000.0 – 2,000.0');
    expect(legend[6]).toBe('16,000.0 – 18,000.0');
    expect(svg).toContain('by ADM1_NAME_ALT');
    expect(svg).not.toContain('stroke="#666666"');
  });

  it('genFile passes the by domains to plot (zonal) but not to a plot without by', async () => {
    const r = await genFile({ format: 'plot', method: 'getLayer', args: { var: ['AREA_TOTAL'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] }, cells, meta: [rec, ...FIXTURE_META.slice(2)], now: FIXED_NOW, basemap, admin1, rasterize: async () => new Uint8Array(0) });
    expect(r.graphics[0].svg).toContain(': sum by Admin-1 unit (fixture)');
    expect(r.graphics[0].svg).toContain('stroke="#666666"');
    const plain = await genFile({ format: 'plot', method: 'getLayer', args: { var: ['AREA_TOTAL'], iso3: ['KEN'] }, cells, meta: [rec], now: FIXED_NOW, basemap, admin1, rasterize: async () => new Uint8Array(0) });
    expect(plain.graphics[0].svg).not.toContain(' by ');
    expect(plain.graphics[0].svg).toContain('100 - 1000');
  });

  it('a plot by an admin-2 domain draws the admin-2 outlines (loaded only then) with their attribution', async () => {
    const admin2 = { ...admin1, attribution: 'Admin-2: fixture' };
    let loads = 0;
    const graphics = { admin2: async () => { loads++; return admin2; } };
    {
      const args = { var: ['AREA_TOTAL'], iso3: ['KEN'], by: ['ADM2_NAME_ALT'] };
      const r = await genFile({ format: 'plot', method: 'getLayer', args, cells, meta: [rec, ...FIXTURE_META.slice(2)], now: FIXED_NOW, basemap, admin1, graphics, rasterize: async () => new Uint8Array(0) });
      expect(r.graphics[0].svg).toContain('stroke="#8a8a8a"');
      expect(r.graphics[0].svg).toContain('Admin-2: fixture');
      expect(r.graphics[0].svg).not.toContain('stroke="#666666"'); // no admin-1 domain
      expect(loads).toBe(1);
      await genFile({ format: 'plot', method: 'getLayer', args: { ...args, by: ['ADM1_NAME_ALT'] }, cells, meta: [rec, ...FIXTURE_META.slice(2)], now: FIXED_NOW, basemap, admin1, graphics, rasterize: async () => new Uint8Array(0) });
      expect(loads).toBe(1);
    }
  });
});
