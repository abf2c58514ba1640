/**
 * GeoJSON writer: a FeatureCollection of cell-centre points.
 *
 * Format: RFC 7946 (https://www.rfc-editor.org/rfc/rfc7946): WGS84 longitude/latitude
 * positions, no `crs` member. One Point feature per selected cell with properties, in order:
 * `CELL5M` (global cell id), `X`, `Y` (centre, degrees); then the keys that tie the cell to
 * its domain, as the `collapse = false` JSON carries them: `ISO3` and `ADM0_NAME` (the
 * country name, from the ISO3 class table's `name` column, when it has one), then one
 * property per `by` code (the class label, or the interval label `(a,b]` of a continuous
 * `by`); then one property per layer, named with its code: the value for continuous layers
 * (with `by`, the summary of the cell's domain: a zonal map), the class label for class
 * layers. `null` for no data.
 */
import type { CellLayer, CellResult } from '../api';
import { cellId } from '../grid';
import { throwIfAborted } from '../errors';
import { utf8 } from './bytes';

/** A property written from a class (key) layer: name, and per class value the text written. */
interface LabelledColumn {
  name: string;
  layer: CellLayer;
  labels: Map<number, string>;
}

/** Key columns of a per-cell result: ISO3 (+ ADM0_NAME from the class table's `name`), then the by codes, as labels. */
function keyColumns(cells: CellResult): LabelledColumn[] {
  const out: LabelledColumn[] = [];
  const taken = new Set(['CELL5M', 'X', 'Y', ...cells.layers.map((l) => l.code)]);
  for (const k of cells.keys ?? []) {
    if (taken.has(k.code)) continue;
    taken.add(k.code);
    const classes = k.classes ?? [];
    out.push({ name: k.code, layer: k, labels: new Map(classes.map((c) => [Number(c.value), String(c.label)])) });
    if (k.code === 'ISO3' && !taken.has('ADM0_NAME') && classes.some((c) => c.name !== undefined && c.name !== '')) {
      taken.add('ADM0_NAME');
      out.push({ name: 'ADM0_NAME', layer: k, labels: new Map(classes.filter((c) => c.name !== undefined && c.name !== '').map((c) => [Number(c.value), String(c.name)])) });
    }
  }
  return out;
}

/**
 * Writes the selected cells of a per-cell result as GeoJSON bytes (UTF-8).
 * @param cells the engine's per-cell result; its `keys` (when present) become the key
 *   properties ISO3, ADM0_NAME and the by codes
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
  const keys = keyColumns(cells);
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
      for (const k of keys) {
        const v = k.layer.values[i];
        props[k.name] = Number.isNaN(v) ? null : (k.labels.get(v) ?? (k.name === 'ADM0_NAME' ? null : String(v)));
      }
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
