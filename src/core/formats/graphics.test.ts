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
      expect(r.files.map((f) => f.name)).toEqual(['getLayer-ELEVATION-KEN.svg', 'getLayer-ELEVATION-KEN.png', 'getLayer-ELEV_ZONE-KEN.svg', 'getLayer-ELEV_ZONE-KEN.png']);
      expect(r.graphics).toHaveLength(2);
      expect(Array.from(r.graphics[0].png.slice(0, 4))).toEqual(PNG_SIG);
      expect(r.graphics[0].png.length).toBeGreaterThan(5000);
      if (format === 'hist') {
        for (const s of ['N', 'Min.', '1st Qu.', 'Median', 'Mean', '3rd Qu.', 'Max.', '1298.8', '1702.3']) expect(r.graphics[0].svg).toContain(`>${s}<`);
      }
    }
  });
});
