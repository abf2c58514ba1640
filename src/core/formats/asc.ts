/**
 * ESRI ASCII grid writer (`.asc`) with its `.prj`.
 *
 * Format: ESRI "ASCII raster format" (ArcGIS help, "Esri ASCII raster format";
 * GDAL driver AAIGrid, https://gdal.org/drivers/raster/aaigrid.html): six header lines
 * `ncols`, `nrows`, `xllcorner`, `yllcorner`, `cellsize`, `NODATA_value`, then `nrows`
 * lines of `ncols` space-separated values, north row first. Corners are cell edges.
 */
import { fmtNum } from './bytes';
import type { WindowGeo } from './raster';

/** The `.prj` of EPSG:4326 in ESRI WKT (as ArcGIS writes GCS_WGS_1984). */
export const ESRI_PRJ_WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/**
 * ESRI ASCII grid text.
 * @param geo window georeferencing
 * @param values one value per cell, row-major north first; NaN = no data
 * @param noData value written for no data (default -9999)
 * @param integer write values as integers (class indices)
 */
export function ascText(geo: WindowGeo, values: ArrayLike<number>, noData = -9999, integer = false): string {
  const lines = [
    `ncols        ${geo.width}`,
    `nrows        ${geo.height}`,
    `xllcorner    ${fmtNum(geo.xmin)}`,
    `yllcorner    ${fmtNum(geo.ymin)}`,
    `cellsize     ${fmtNum(geo.cellSize)}`,
    `NODATA_value ${noData}`,
  ];
  for (let r = 0; r < geo.height; r++) {
    const parts = new Array<string>(geo.width);
    for (let c = 0; c < geo.width; c++) {
      const v = values[r * geo.width + c];
      parts[c] = Number.isNaN(v) ? String(noData) : integer ? String(Math.round(v)) : fmtNum(v);
    }
    lines.push(parts.join(' '));
  }
  return lines.join('\n') + '\n';
}
