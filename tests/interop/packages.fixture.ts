/**
 * Writes the FIXTURE data packages of every file format to a folder, for the interop tests
 * that open them with the real readers (R, GDAL, pandas).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CellResult } from '../../src/core/api';
import { genFile, zipFiles } from '../../src/core/formats/index';
import { CELLS_KEN, CELLS_KEN_NOBY, CELLS_KEN_ZONAL, FIXED_NOW, FIXTURE_META, TABLE_CLASS_BY_INTERVAL, TABLE_KEN_ADM1 } from '../formats/formats.fixture';

/** The request behind the KEN fixtures. */
export const KEN_ARGS = { var: ['ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };
/** The request behind the per-cell GeoJSON fixture (no `by`: cell values). */
export const KEN_NOBY_ARGS = { var: ['ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE'], iso3: ['KEN'] };
/** The request behind the single-band class grd fixture. */
export const KEN_ZONE_ARGS = { var: ['ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };
/** The request behind the interval fixture. */
export const INTERVAL_ARGS = { var: ['ELEV_ZONE'], by: { ELEVATION: [-500, 500, 1500, 3000, 6000] } };

/** One written package. */
export interface WrittenPackage {
  /** Case folder name, e.g. "ken-csv". */
  name: string;
  format: string;
  dir: string;
  files: string[];
  zip: string;
}

/**
 * Writes every case under `root/<case>/` (files and the ZIP).
 * @param root output folder
 */
export async function writeAllPackages(root: string): Promise<WrittenPackage[]> {
  const out: WrittenPackage[] = [];
  const zoneOnly: CellResult = { ...CELLS_KEN, layers: CELLS_KEN.layers.filter((l) => l.code === 'ELEV_ZONE') };
  const cases: Array<{ name: string; format: string; args: Record<string, unknown>; table?: typeof TABLE_KEN_ADM1; cells?: CellResult }> = [
    ...['csv', 'dta', 'rds', 'rda', 'tif', 'asc', 'grd'].map((format) => ({ name: `ken-${format}`, format, args: KEN_ARGS, table: TABLE_KEN_ADM1 })),
    { name: 'ken-json', format: 'json', args: KEN_ARGS, cells: CELLS_KEN_ZONAL },
    { name: 'ken-json-cells', format: 'json', args: KEN_NOBY_ARGS, cells: CELLS_KEN_NOBY },
    { name: 'ken-zone-grd', format: 'grd', args: KEN_ZONE_ARGS, cells: zoneOnly },
    ...['csv', 'dta', 'rds', 'rda'].map((format) => ({ name: `interval-${format}`, format, args: INTERVAL_ARGS, table: TABLE_CLASS_BY_INTERVAL })),
  ];
  for (const c of cases) {
    const r = await genFile({ format: c.format, method: 'getLayer', args: c.args, table: c.table, cells: c.cells ?? CELLS_KEN, meta: FIXTURE_META, now: FIXED_NOW, requestUrl: 'http://localhost:8080/ocpu/library/indapi3/R/indapi' });
    const dir = join(root, c.name);
    mkdirSync(dir, { recursive: true });
    for (const f of r.files) writeFileSync(join(dir, f.name), f.bytes);
    const zip = join(root, `${c.name}.zip`);
    writeFileSync(zip, await zipFiles(r.files, {}, FIXED_NOW));
    out.push({ name: c.name, format: c.format, dir, files: r.files.map((f) => f.name), zip });
  }
  return out;
}
