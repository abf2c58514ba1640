/**
 * GeoJSON writer: a FeatureCollection of cell-centre points.
 *
 * Format: RFC 7946 (https://www.rfc-editor.org/rfc/rfc7946): WGS84 longitude/latitude
 * positions, no `crs` member. One Point feature per selected cell with properties
 * `CELL5M` (global cell id), `X`, `Y` (centre, degrees) and one property per layer, named
 * with its code: the value for continuous layers, the class label for class layers, `null`
 * for no data.
 */
import type { CellResult } from '../api';
import { cellId } from '../grid';
import { throwIfAborted } from '../errors';
import { utf8 } from './bytes';

/**
 * Writes the selected cells of a per-cell result as GeoJSON bytes (UTF-8).
 * @param cells the engine's per-cell result
 * @param signal aborts between rows
 * @throws IndapiError ABORTED
 */
export function writeGeoJson(cells: CellResult, signal?: AbortSignal): Uint8Array {
  const { grid, mask, layers } = cells;
  const perDeg = Math.round(1 / grid.cellSizeDeg);
  // Centres as one correctly rounded division: x = (2 gc + 1 - 360 k) / 2k, y = (180 k - 2 gr - 1) / 2k, k = cells per degree.
  const centre = (col: number, row: number): [number, number] => [
    (2 * (col + grid.colOffset) + 1 - 360 * perDeg) / (2 * perDeg),
    (180 * perDeg - 2 * (row + grid.rowOffset) - 1) / (2 * perDeg),
  ];
  const labelMaps = layers.map((l) => (l.type === 'class' ? new Map((l.classes ?? []).map((c) => [Number(c.value), String(c.label)])) : undefined));
  const parts: string[] = ['{"type":"FeatureCollection","features":['];
  let first = true;
  for (let row = 0; row < grid.height; row++) {
    if (row % 64 === 0) throwIfAborted(signal);
    for (let col = 0; col < grid.width; col++) {
      const i = row * grid.width + col;
      if (!mask[i]) continue;
      const [x, y] = centre(col, row);
      const props: Record<string, string | number | null> = { CELL5M: cellId(grid, col, row), X: x, Y: y };
      layers.forEach((l, k) => {
        const v = l.values[i];
        if (Number.isNaN(v)) props[l.code] = null;
        else if (labelMaps[k]) props[l.code] = labelMaps[k]?.get(v) ?? String(v);
        else props[l.code] = v;
      });
      parts.push(`${first ? '' : ','}\n{"type":"Feature","geometry":{"type":"Point","coordinates":[${x},${y}]},"properties":${JSON.stringify(props)}}`);
      first = false;
    }
  }
  parts.push('\n]}\n');
  return utf8(parts.join(''));
}
