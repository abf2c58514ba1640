/**
 * Every COG of the bundle: a valid Cloud-Optimized GeoTIFF by GDAL's own validator (tiled,
 * overviews, IFD order), exactly on SSA_GRID (size, geotransform, EPSG:4326), with the
 * catalog's data type and no-data, DEFLATE with a predictor, 256 x 256 tiles; and
 * readable by geotiff.js with no-data outside the ISO3 mask, and inside it only where documented:
 * the PN14_* national figures, and ELEVATION / ELEV_ZONE / SLOPE / TRI in the coastal cells where
 * ETOPO5 has only sea floor at all 4 corners (scripts/data/compute.py etopo5_cells).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fromFile } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { SSA_GRID } from '../../src/core/grid';
import { BUNDLE, indexAt, readBand, readCatalog, readClassTable } from './bundle.fixture';

/** Cells of the ISO3 mask without ELEVATION, as counted by the build (ELEVATION varDesc). */
const ELEV_NO_DATA_CELLS = 188;
/** Layers that are no-data exactly where ELEVATION is. */
const FOLLOW_ELEVATION = ['ELEVATION', 'ELEV_ZONE', 'SLOPE', 'TRI'];

const catalog = readCatalog();
const cogDir = join(BUNDLE, 'cog');
const files = readdirSync(cogDir).filter((f) => f.endsWith('.tif')).sort();

describe('bundle COGs', () => {
  it('has exactly one COG per catalog record and nothing else in cog/', () => {
    expect(files).toEqual(catalog.map((r) => `${r.varCode}.tif`).sort());
    expect(readdirSync(cogDir).filter((f) => !f.endsWith('.tif'))).toEqual([]);
  });

  it('passes validate_cloud_optimized_geotiff (full check) for every file', () => {
    // One Python process for all files; prints one line per file: name, errors, warnings.
    const script = [
      'import sys, json',
      'from osgeo_utils.samples.validate_cloud_optimized_geotiff import validate',
      'out = {}',
      'for p in sys.argv[1:]:',
      '    w, e, _ = validate(p, full_check=True)',
      '    out[p.rsplit("/", 1)[-1]] = {"errors": e, "warnings": w}',
      'print(json.dumps(out))',
    ].join('\n');
    const res = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', script, ...files.map((f) => join(cogDir, f))], { encoding: 'utf8' }),
    ) as Record<string, { errors: string[]; warnings: string[] }>;
    expect(Object.keys(res).sort()).toEqual(files);
    for (const f of files) expect({ f, errors: res[f].errors }).toEqual({ f, errors: [] });
  });

  for (const rec of catalog) {
    it(`${rec.varCode}: on the grid, typed and tiled as the catalog says (gdalinfo -json)`, () => {
      const info = JSON.parse(
        execFileSync('gdalinfo', ['-json', join(cogDir, `${rec.varCode}.tif`)], {
          encoding: 'utf8',
          env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
        }),
      );
      expect(info.size).toEqual([SSA_GRID.width, SSA_GRID.height]);
      // gdalinfo prints 15 significant digits; the exact bits are checked with geotiff.js below.
      const gt = info.geoTransform as number[];
      const want = [SSA_GRID.xmin, 1 / 12, 0, SSA_GRID.ymax, 0, -1 / 12];
      for (let k = 0; k < 6; k++) expect(Math.abs(gt[k] - want[k])).toBeLessThan(1e-15);
      expect(info.coordinateSystem.wkt).toMatch(/ID\["EPSG",4326\]\]$/);
      expect(info.metadata.IMAGE_STRUCTURE.LAYOUT).toBe('COG');
      expect(info.metadata.IMAGE_STRUCTURE.COMPRESSION).toBe('DEFLATE');
      expect(info.bands).toHaveLength(1);
      const b = info.bands[0];
      expect(b.type).toBe(rec.dataType);
      expect(b.noDataValue).toBe(Number(rec.noData));
      expect(b.block).toEqual([256, 256]);
      expect(b.overviews.length).toBeGreaterThanOrEqual(2);
      expect(b.overviews[0].size).toEqual([540, 378]);
      const expectedNoData = rec.type === 'continuous' ? -9999 : rec.dataType === 'Byte' ? 255 : 65535;
      expect(Number(rec.noData)).toBe(expectedNoData);
      expect(rec.dataType).toBe(rec.type === 'continuous' ? 'Float32' : rec.dataType === 'UInt16' ? 'UInt16' : 'Byte');
    });
  }

  it('has the exact 1/12-degree lattice and a predictor geotiff.js decodes (3 for Float32, 2 for integers)', async () => {
    for (const rec of catalog) {
      const tiff = await fromFile(join(cogDir, `${rec.varCode}.tif`));
      const img = await tiff.getImage(0);
      // Bit-exact double values of the TIFF ModelPixelScale / ModelTiepoint tags.
      expect(img.getResolution()).toEqual([1 / 12, -1 / 12, 0]);
      expect(img.getOrigin()).toEqual([SSA_GRID.xmin, SSA_GRID.ymax, 0]);
      const predictor = Number(await img.getFileDirectory().loadValue('Predictor'));
      expect({ code: rec.varCode, predictor }).toEqual({ code: rec.varCode, predictor: rec.dataType === 'Float32' ? 3 : 2 });
      expect(await tiff.getImageCount()).toBeGreaterThanOrEqual(3);
      await tiff.close();
    }
  });

  it('has no-data exactly outside the ISO3 mask in every layer, and values inside it for the keys', async () => {
    const iso = await readBand('ISO3');
    const inMask = (i: number) => iso.data[i] !== iso.noData;
    let n = 0;
    for (let i = 0; i < iso.data.length; i++) if (inMask(i)) n++;
    expect(n).toBe(294_505);
    // Cells of the mask without ELEVATION: ETOPO5 has only sea floor (below -155 m) at all 4 corners.
    const elev = await readBand('ELEVATION');
    const elevNoData = new Set<number>();
    for (let i = 0; i < elev.data.length; i++) if (inMask(i) && elev.data[i] === elev.noData) elevNoData.add(i);
    expect(elevNoData.size).toBe(ELEV_NO_DATA_CELLS);
    for (const rec of catalog) {
      const band = await readBand(rec.varCode);
      expect(band.noData).toBe(Number(rec.noData));
      let outside = 0;
      const insideNoData: number[] = [];
      for (let i = 0; i < band.data.length; i++) {
        const nd = band.data[i] === band.noData;
        if (!inMask(i) && !nd) outside++;
        if (inMask(i) && nd) insideNoData.push(i);
      }
      expect({ code: rec.varCode, outside }).toEqual({ code: rec.varCode, outside: 0 });
      if (FOLLOW_ELEVATION.includes(rec.varCode)) {
        // Exactly the cells without ELEVATION, documented in varDesc; nothing else.
        expect({ code: rec.varCode, n: insideNoData.length }).toEqual({ code: rec.varCode, n: ELEV_NO_DATA_CELLS });
        expect({ code: rec.varCode, same: insideNoData.every((i) => elevNoData.has(i)) }).toEqual({ code: rec.varCode, same: true });
      } else if (rec.varCode === 'FRICTION_WALK') {
        // Barriers (scripts/data/friction.py): cells without SLOPE and cells with no land (GSHHG; any land is passable).
        const land = await readBand('LAND_SHARE');
        const want = (i: number) => elevNoData.has(i) || land.data[i] <= 0;
        let bad = 0, nWant = 0;
        for (let i = 0; i < band.data.length; i++) if (inMask(i)) { if (want(i)) nWant++; if (want(i) !== (band.data[i] === band.noData)) bad++; }
        expect({ code: rec.varCode, bad }).toEqual({ code: rec.varCode, bad: 0 });
        expect(insideNoData.length).toBe(nWant);
      } else if (rec.varCode === 'CENSUS_POP') {
        // Census figures by first-level unit (scripts/data/census_adm1.csv): whole countries have them or not.
        const partial = new Set<number>();
        const has = new Set<number>();
        for (let i = 0; i < band.data.length; i++) if (inMask(i) && band.data[i] !== band.noData) has.add(iso.data[i]);
        for (const i of insideNoData) if (has.has(iso.data[i])) partial.add(iso.data[i]);
        expect({ code: rec.varCode, partial: [...partial] }).toEqual({ code: rec.varCode, partial: [] });
        expect(has.size).toBeGreaterThanOrEqual(14);
      } else if (!rec.varCode.startsWith('PN14_')) {
        // Only the national 2014 figures and the census figures have countries without data (documented in varDesc).
        expect({ code: rec.varCode, insideNoData: insideNoData.length }).toEqual({ code: rec.varCode, insideNoData: 0 });
      }
    }
  });

  it('the cells without ELEVATION are all coastal, and all but 3 on Fogo and Santiago (Cabo Verde) are partly sea', async () => {
    const iso = await readBand('ISO3');
    const elev = await readBand('ELEVATION');
    const ls = await readBand('LAND_SHARE');
    const coast = await readBand('DIST_COAST');
    const wholeLand: number[] = [];
    let n = 0;
    let farthest = 0;
    for (let i = 0; i < elev.data.length; i++) {
      if (iso.data[i] === iso.noData || elev.data[i] !== elev.noData) continue;
      n++;
      expect(ls.data[i]).not.toBe(ls.noData);
      expect(coast.data[i]).not.toBe(coast.noData);
      farthest = Math.max(farthest, coast.data[i]);
      if (ls.data[i] >= 100) wholeLand.push(i);
    }
    expect(n).toBe(ELEV_NO_DATA_CELLS);
    // Coastal: the cell centre lies within 8.2 km of the GSHHG shoreline (half-diagonal of a cell about 6.5 km).
    expect(farthest).toBeCloseTo(8.2, 4);
    // GSHHG has these 3 cells wholly land; ETOPO5 has sea floor deeper than 700 m at all their corners.
    expect(wholeLand.sort((a, b) => a - b)).toEqual(
      [indexAt(-24.375, 14.958), indexAt(-23.542, 14.958), indexAt(-24.375, 14.875)].sort((a, b) => a - b));
    const isoLabels = readClassTable('ISO3').labels;
    for (const i of wholeLand) expect(isoLabels.get(iso.data[i])).toBe('CPV');
  });
});
