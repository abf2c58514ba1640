import { describe, expect, it } from 'vitest';
import { CELLS_KEN } from '../../../tests/formats/formats.fixture';
import { SSA_GRID } from '../grid';
import { ascText } from './asc';
import { writeGrd } from './grd';
import { pamXml } from './pam';
import { classIndices, windowGeo } from './raster';

describe('raster helpers and text rasters', () => {
  it('computes window edges from the global lattice', () => {
    expect(windowGeo(SSA_GRID)).toMatchObject({ xmin: -26, xmax: 64, ymin: -35, ymax: 28, width: 1080, height: 756 });
  });
  it('maps class values to 0-based indices, unselected and NaN to -1', () => {
    const { classes, index } = classIndices(CELLS_KEN.layers[1], CELLS_KEN.mask);
    expect(classes.map((c) => c.value)).toEqual([1, 2, 3]);
    expect(Array.from(index.slice(0, 8))).toEqual([2, 2, 2, 2, 2, 1, 1, -1]);
    expect(Array.from(index.slice(18))).toEqual([-1, -1]);
  });
  it('writes an ESRI ASCII grid header and north-first rows', () => {
    const geo = windowGeo(CELLS_KEN.grid);
    const t = ascText(geo, CELLS_KEN.layers[0].values).split('\n');
    expect(t.slice(0, 6)).toEqual(['ncols        5', 'nrows        4', 'xllcorner    36', `yllcorner    ${2 / 12}`, `cellsize     ${1 / 12}`, 'NODATA_value -9999']);
    expect(t[6]).toBe('1523.5 1610 1702.25 1800 2950');
    expect(t[7]).toBe('1400 1488 -9999 1650 2100');
  });
  it('writes a raster grd header and BIL float32 data', () => {
    const geo = windowGeo(CELLS_KEN.grid);
    const { grd, gri } = writeGrd(geo, [{ name: 'A', values: [1, 2, 3, NaN, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] }, { name: 'B', values: new Array(20).fill(2) }], new Date('2026-01-02T03:04:05Z'));
    expect(grd).toContain('created=2026-01-02 03:04:05');
    expect(grd).toContain('nbands=2\nbandorder=BIL');
    expect(grd).toContain('minvalue=1:2\nmaxvalue=20:2\nnodatavalue=-3.4e+38');
    expect(grd).toContain('layername=A:B');
    expect(grd).toContain('projection=+proj=longlat +datum=WGS84 +no_defs');
    const f = new Float32Array(gri.buffer.slice(0));
    expect(f.length).toBe(40);
    expect(Array.from(f.slice(0, 5))).toEqual([1, 2, 3, NaN, 5]);
    expect(Array.from(f.slice(5, 10))).toEqual([2, 2, 2, 2, 2]);
    expect(Array.from(f.slice(10, 15))).toEqual([6, 7, 8, 9, 10]);
  });
  it('writes PAM XML with escaped category names and a colour table', () => {
    const x = pamXml([{ description: 'X', noData: 255, categories: ['a<b', 'c'], colors: ['#ff0000', undefined] }]);
    expect(x).toContain('<Category>a&lt;b</Category>');
    expect(x).toContain('<NoDataValue>255</NoDataValue>');
    expect(x).toContain('<Entry c1="255" c2="0" c3="0" c4="255"/>');
  });
});
