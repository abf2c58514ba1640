/**
 * GeoJSON writers (RFC 7946, https://www.rfc-editor.org/rfc/rfc7946: WGS84 longitude/latitude
 * positions, no `crs` member), in two shapes:
 *
 * - per cell ({@link writeGeoJson}): one Point feature per selected cell at its centre, with
 *   properties, in order: `CELL5M` (global cell id), `X`, `Y` (centre, degrees); then the keys
 *   that tie the cell to its domain: `ISO3` and `ADM0_NAME` (the country name, from the ISO3
 *   class table's `name` column, when it has one), then one property per `by` key layer of
 *   the result (class label, or interval label `(a,b]`); then one property per layer, named
 *   with its code: the cell's own value for continuous layers, the class label for class
 *   layers; `null` for no data. The caller passes a result without `by` summaries (see
 *   `cellQueryArgs`), so the values are the cells' values;
 * - zonal ({@link writeGeoJsonZonal}, a request with `by`): one Polygon/MultiPolygon feature
 *   per group (`by` unit/class/interval, per country when the summary is per country) whose
 *   geometry is the union of the group's 5-arc-minute cells (the outline traced on the grid,
 *   see {@link traceGroups}), with the keys, `CELLS` (selected cells of the group) and the
 *   group's summary values as properties: each group once, so sums over features add up.
 *
 * Both write a top-level foreign member `description` (RFC 7946 section 6.1) saying what the
 * values are. Exterior rings are counterclockwise, holes clockwise (RFC 7946 section 3.1.6,
 * right-hand rule); rings never self-touch (a pinch of two cells touching at a corner splits
 * into two rings); the grid never crosses the antimeridian.
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

/** Text of the top-level `description` of a per-cell GeoJSON. */
export const CELL_POINTS_DESCRIPTION =
  'One Point feature per selected 5-arc-minute cell (EPSG:4326), at the cell centre. The value properties are each cell\'s own values (not summaries of a unit): a sum over features is the sum over the cells.';

/**
 * Writes the selected cells of a per-cell result as GeoJSON Point features, UTF-8 bytes.
 * @param cells the engine's per-cell result; its `keys` (when present) become the key
 *   properties ISO3, ADM0_NAME and the by codes
 * @param signal aborts between rows
 * @param description the FeatureCollection's `description` member (default {@link CELL_POINTS_DESCRIPTION})
 * @throws IndapiError ABORTED
 */
export function writeGeoJson(cells: CellResult, signal?: AbortSignal, description: string = CELL_POINTS_DESCRIPTION): Uint8Array {
  const { grid, mask, layers } = cells;
  const perDeg = Math.round(1 / grid.cellSizeDeg);
  // Centres as one correctly rounded division: x = (2 gc + 1 - 360 k) / 2k, y = (180 k - 2 gr - 1) / 2k, k = cells per degree.
  const centre = (col: number, row: number): [number, number] => [
    (2 * (col + grid.colOffset) + 1 - 360 * perDeg) / (2 * perDeg),
    (180 * perDeg - 2 * (row + grid.rowOffset) - 1) / (2 * perDeg),
  ];
  const keys = keyColumns(cells);
  const labelMaps = layers.map((l) => (l.type === 'class' ? new Map((l.classes ?? []).map((c) => [Number(c.value), String(c.label)])) : undefined));
  const parts: string[] = [`{"type":"FeatureCollection","description":${JSON.stringify(description)},"features":[`];
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

/** Lattice vertex directions of {@link traceGroups}: east, north, west, south. */
const DX = [1, 0, -1, 0];
/** Row change of each direction (rows grow southwards). */
const DROW = [0, -1, 0, 1];

/**
 * A traced polygon on the cell lattice: an exterior ring and its holes, each a closed list of
 * lattice vertices `[col, row]` (vertex `[c, r]` is the north-west corner of cell `(c, r)`),
 * first = last. Exterior rings run counterclockwise on the map (north up), holes clockwise.
 */
export interface LatticePolygon {
  /** Exterior ring, counterclockwise. */
  exterior: Array<[number, number]>;
  /** Holes, clockwise. */
  holes: Array<Array<[number, number]>>;
}

/**
 * Outlines of groups of cells on a grid window: for every group id, the union of its cells
 * as polygons with holes, traced along the cell edges between the group and anything else
 * (another group, an unselected cell or the window's edge). At a vertex where two of the
 * group's cells touch only by their corners the trace turns left, keeping the group on its
 * left, and rings that still pass a vertex twice are split there, so every ring is simple.
 * Collinear vertices are dropped. Each hole is assigned to the exterior ring that contains
 * the centre of the cell on the hole's group side.
 * @param group per cell of the window (row-major, `width * height`), the group id
 *   (0..nGroups-1), or -1 for cells of no group
 * @param width window columns
 * @param height window rows
 * @param nGroups number of groups
 * @returns per group its polygons (empty for a group without cells)
 */
export function traceGroups(group: Int32Array, width: number, height: number, nGroups: number): LatticePolygon[][] {
  const W1 = width + 1;
  // boundary edges per group: start vertex, direction (end = start + direction)
  const starts: number[][] = Array.from({ length: nGroups }, () => []);
  const dirs: number[][] = Array.from({ length: nGroups }, () => []);
  const at = (c: number, r: number) => (c < 0 || r < 0 || c >= width || r >= height ? -1 : group[r * width + c]);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const g = group[r * width + c];
      if (g < 0) continue;
      const s = starts[g], d = dirs[g];
      // counterclockwise around the cell (north up): bottom east, right north, top west, left south
      if (at(c, r + 1) !== g) edge(s, d, (r + 1) * W1 + c, 0);
      if (at(c + 1, r) !== g) edge(s, d, (r + 1) * W1 + c + 1, 1);
      if (at(c, r - 1) !== g) edge(s, d, r * W1 + c + 1, 2);
      if (at(c - 1, r) !== g) edge(s, d, r * W1 + c, 3);
    }
  }
  const out: LatticePolygon[][] = [];
  // outgoing edges per vertex, shared by the groups (reset after each): at most 2, a corner pinch
  const V = W1 * (height + 1);
  const out1 = new Int32Array(V).fill(-1);
  const out2 = new Int32Array(V).fill(-1);
  for (let g = 0; g < nGroups; g++) out.push(traceOne(starts[g], dirs[g], W1, out1, out2));
  return out;
}

/** Adds a boundary edge (start vertex, direction). */
function edge(starts: number[], dirs: number[], v: number, d: number): void {
  starts.push(v);
  dirs.push(d);
}

/**
 * Rings of one group's boundary edges (see {@link traceGroups}); `out1`/`out2` are all -1 on
 * entry and on return.
 */
function traceOne(starts: number[], dirs: number[], W1: number, out1: Int32Array, out2: Int32Array): LatticePolygon[] {
  const n = starts.length;
  if (n === 0) return [];
  let pinches = 0;
  for (let e = 0; e < n; e++) {
    if (out1[starts[e]] >= 0) {
      out2[starts[e]] = e;
      pinches++;
    } else out1[starts[e]] = e;
  }
  const used = new Uint8Array(n);
  const endOf = (e: number) => starts[e] + DX[dirs[e]] + DROW[dirs[e]] * W1;
  const rings: number[][] = [];
  for (let e0 = 0; e0 < n; e0++) {
    if (used[e0]) continue;
    const path: number[] = [starts[e0]];
    let e = e0;
    for (;;) {
      used[e] = 1;
      const v = endOf(e);
      if (v === starts[e0]) break;
      path.push(v);
      const a = out1[v], b = out2[v];
      const ca = a >= 0 && !used[a] ? a : -1;
      const cb = b >= 0 && !used[b] ? b : -1;
      if (ca < 0 && cb < 0) break; // cannot happen on a closed boundary
      // at a pinch, turn left (keep the group's cell on the left)
      e = ca < 0 ? cb : cb < 0 ? ca : dirs[ca] === (dirs[e] + 1) % 4 ? ca : cb;
    }
    if (pinches === 0) {
      rings.push(path); // no pinch vertex: no vertex repeats
      continue;
    }
    // split at repeated vertices so every ring is simple
    const stack: number[] = [];
    const pos = new Map<number, number>();
    for (const v of path) {
      const p = pos.get(v);
      if (p !== undefined) {
        const loop = stack.splice(p + 1);
        for (const x of loop) pos.delete(x);
        rings.push([v, ...loop]);
      } else {
        pos.set(v, stack.length);
        stack.push(v);
      }
    }
    rings.push(stack);
  }
  for (let e = 0; e < n; e++) out1[starts[e]] = out2[starts[e]] = -1;
  const exteriors: Array<{ ring: Array<[number, number]>; box: [number, number, number, number]; holes: Array<Array<[number, number]>> }> = [];
  const holes: Array<Array<[number, number]>> = [];
  for (const r of rings) {
    const pts = simplify(r, W1);
    if (pts.length < 4) continue;
    // signed area with north up (y = -row): > 0 counterclockwise
    let a = 0;
    for (let i = 0; i + 1 < pts.length; i++) a += pts[i][0] * -pts[i + 1][1] - pts[i + 1][0] * -pts[i][1];
    if (a > 0) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const [x, y] of pts) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
      exteriors.push({ ring: pts, box: [x0, y0, x1, y1], holes: [] });
    } else holes.push(pts);
  }
  for (const h of holes) {
    // the centre of the group's cell left of the hole's first edge
    const [ax, ay] = h[0], [bx, by] = h[1];
    const dx = Math.sign(bx - ax), dy = Math.sign(by - ay); // lattice step (row down)
    // left of (dx, dy) with rows growing southwards: (dy, -dx)
    const px = ax + dx * 0.5 + dy * 0.5, py = ay + dy * 0.5 - dx * 0.5;
    const owner = exteriors.find((x) => px > x.box[0] && px < x.box[2] && py > x.box[1] && py < x.box[3] && inside(x.ring, px, py));
    (owner ?? exteriors[0])?.holes.push(h);
  }
  return exteriors.map((x) => ({ exterior: x.ring, holes: x.holes }));
}

/**
 * Drops the vertices of a closed ring of lattice vertex ids (`row * W1 + col`, last vertex
 * not repeated) where it goes straight on; returns `[col, row]` points, closed (first = last).
 */
function simplify(ring: number[], W1: number): Array<[number, number]> {
  const n = ring.length;
  const keep: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const p = ring[(i + n - 1) % n], q = ring[i], r = ring[(i + 1) % n];
    // straight on: the same step before and after
    if (q - p === r - q) continue;
    keep.push([q % W1, Math.floor(q / W1)]);
  }
  if (keep.length) keep.push(keep[0]);
  return keep;
}

/** Even-odd ray casting: is the point (never on a lattice line) inside the closed ring? */
function inside(ring: Array<[number, number]>, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Options of {@link writeGeoJsonZonal}. */
export interface ZonalGeoJsonOptions {
  /**
   * True when the summaries pool countries (a region, SSA, a WKT shape or cell ids): groups
   * are then the `by` keys only, and `ISO3` lists the countries of the group's cells
   * (comma-separated) without `ADM0_NAME`. False: groups are per country and `by` keys.
   */
  pooled: boolean;
  /** Aborts between groups. */
  signal?: AbortSignal;
  /** The FeatureCollection's `description` (default: {@link zonalDescription}). */
  description?: string;
}

/**
 * Text of the top-level `description` of a zonal GeoJSON.
 * @param pooled whether the summaries pool countries (see {@link ZonalGeoJsonOptions})
 */
export function zonalDescription(pooled: boolean): string {
  return `One (Multi)Polygon feature per group (${pooled ? 'by the `by` keys over all selected countries' : 'per country and `by` keys'}): the geometry is the union of the group's 5-arc-minute cells (EPSG:4326), CELLS the number of its selected cells, and the value properties are the group's summary (its aggregation formula over the group's cells, as the summary table gives it), written once per group, not cell values. Sums over features add up as the table's rows do.`;
}

/**
 * Writes a per-cell result computed with `by` (every cell carrying its group's summary) as
 * one Polygon or MultiPolygon feature per group, UTF-8 bytes. A group is a distinct tuple of
 * the key layers (ISO3 and the by codes; without ISO3 when `pooled`); cells with no key in a
 * by dimension form that dimension's NA group (key `null`), as the summary table's rows.
 * Properties: the keys (ISO3, ADM0_NAME, the by codes as labels), `CELLS`, then one per layer
 * (the summary value; the class label for class layers), `null` for no value.
 * Features are ordered by the first cell of each group (row-major, north-west first).
 * @param cells the engine's per-cell result with `keys`
 * @param opts pooling, abort signal, description
 * @throws IndapiError ABORTED
 */
export function writeGeoJsonZonal(cells: CellResult, opts: ZonalGeoJsonOptions): Uint8Array {
  const { grid, mask, layers } = cells;
  const { pooled, signal } = opts;
  const perDeg = Math.round(1 / grid.cellSizeDeg);
  const lon = (c: number) => (c + grid.colOffset - 180 * perDeg) / perDeg;
  const lat = (r: number) => (90 * perDeg - (r + grid.rowOffset)) / perDeg;
  const keys = keyColumns(cells).filter((k) => !(pooled && (k.name === 'ISO3' || k.name === 'ADM0_NAME')));
  const iso = (cells.keys ?? []).find((k) => k.code === 'ISO3');
  const isoLabels = new Map((iso?.classes ?? []).map((c) => [Number(c.value), String(c.label)]));
  const groupLayers = [...new Set(keys.map((k) => k.layer))];
  const n = grid.width * grid.height;
  const group = new Int32Array(n).fill(-1);
  const ids = new Map<string | number, number>();
  const first: number[] = [];
  const count: number[] = [];
  const countries: Array<Set<string>> = [];
  const one = groupLayers.length === 1 ? groupLayers[0].values : null;
  for (let i = 0; i < n; i++) {
    if (!mask[i]) continue;
    // one key layer (the usual case): its value is the key (NaN: the NA group)
    const key: string | number = one ? (Number.isNaN(one[i]) ? 'NA' : one[i]) : groupLayers.map((l) => (Number.isNaN(l.values[i]) ? 'NA' : String(l.values[i]))).join('\u0000');
    let g = ids.get(key);
    if (g === undefined) {
      g = first.length;
      ids.set(key, g);
      first.push(i);
      count.push(0);
      countries.push(new Set());
    }
    group[i] = g;
    count[g]++;
    if (pooled && iso && !Number.isNaN(iso.values[i])) countries[g].add(isoLabels.get(iso.values[i]) ?? String(iso.values[i]));
  }
  throwIfAborted(signal);
  const polys = traceGroups(group, grid.width, grid.height, first.length);
  const labelMaps = layers.map((l) => (l.type === 'class' ? new Map((l.classes ?? []).map((c) => [Number(c.value), String(c.label)])) : undefined));
  const ring = (pts: Array<[number, number]>) => `[${pts.map(([c, r]) => `[${lon(c)},${lat(r)}]`).join(',')}]`;
  const parts: string[] = [`{"type":"FeatureCollection","description":${JSON.stringify(opts.description ?? zonalDescription(pooled))},"features":[`];
  for (let g = 0; g < first.length; g++) {
    if (g % 64 === 0) throwIfAborted(signal);
    const i = first[g];
    const props: Record<string, string | number | null> = {};
    if (pooled && iso) props.ISO3 = [...countries[g]].sort().join(',') || null;
    for (const k of keys) {
      const v = k.layer.values[i];
      props[k.name] = Number.isNaN(v) ? null : (k.labels.get(v) ?? (k.name === 'ADM0_NAME' ? null : String(v)));
    }
    props.CELLS = count[g];
    layers.forEach((l, k) => {
      const v = l.values[i];
      if (Number.isNaN(v)) props[l.code] = null;
      else if (labelMaps[k]) props[l.code] = labelMaps[k]?.get(v) ?? String(v);
      else props[l.code] = v;
    });
    const ps = polys[g].map((p) => `[${[ring(p.exterior), ...p.holes.map(ring)].join(',')}]`);
    const geometry = ps.length === 1 ? `{"type":"Polygon","coordinates":${ps[0]}}` : `{"type":"MultiPolygon","coordinates":[${ps.join(',')}]}`;
    parts.push(`${g ? ',' : ''}\n{"type":"Feature","geometry":${geometry},"properties":${JSON.stringify(props)}}`);
  }
  parts.push('\n]}\n');
  return utf8(parts.join(''));
}
