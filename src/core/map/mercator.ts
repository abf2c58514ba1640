/**
 * Web Mercator (EPSG:3857) tile math for drawing EPSG:4326 grids exactly: every output
 * pixel of a 256-px XYZ tile is mapped back to longitude/latitude (spherical Mercator
 * inverse, as in the OSM slippy-map convention) and sampled from the source cell that
 * contains it, so cells sit where they belong at every zoom (no corner-stretched image).
 */

/** MapLibre's world size in CSS px at zoom 0 (512-px tiles): the world is 512 * 2^zoom CSS px wide. */
export const WORLD_PX = 512;

/** Web Mercator x of a longitude as a fraction of the world's width, 0..1 from the antimeridian west. */
export function mercX(lon: number): number {
  return (lon + 180) / 360;
}

/** Web Mercator y of a latitude (degrees) as a fraction of the world's height, 0 at 85.0511 N, 1 at 85.0511 S. */
export function mercY(lat: number): number {
  return (180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))) / 360;
}

/** Latitude (degrees) of a Web Mercator y (inverse of {@link mercY}). */
export function latOfMercY(y: number): number {
  return (360 / Math.PI) * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180)) - 90;
}

/** Longitude (degrees) of the centre of pixel column `px` of tile column `x` at zoom `z`. */
export function pixelLon(z: number, x: number, px: number, tileSize = 256): number {
  return ((x * tileSize + px + 0.5) / (tileSize * 2 ** z)) * 360 - 180;
}

/** Latitude (degrees) of the centre of pixel row `py` of tile row `y` at zoom `z` (Mercator inverse). */
export function pixelLat(z: number, y: number, py: number, tileSize = 256): number {
  const n = Math.PI * (1 - (2 * (y * tileSize + py + 0.5)) / (tileSize * 2 ** z));
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

/** Bounds of tile z/x/y: [west, south, east, north] in degrees. */
export function tileBounds(z: number, x: number, y: number): [number, number, number, number] {
  const n = 2 ** z;
  const lat = (t: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * t) / n))) * 180) / Math.PI;
  return [(x / n) * 360 - 180, lat(y + 1), ((x + 1) / n) * 360 - 180, lat(y)];
}

/** A raster level: a north-up EPSG:4326 image of `width` x `height` pixels over `bbox`. */
export interface RasterLevel {
  width: number;
  height: number;
  /** [xmin, ymin, xmax, ymax] degrees (outer pixel edges). */
  bbox: [number, number, number, number];
  /** Values row-major, north row first; no-data as NaN. */
  values: Float32Array | Float64Array;
}

/**
 * Renders tile z/x/y of a level into RGBA pixels (little-endian packed uint32 per pixel),
 * nearest cell: the cell containing each pixel centre. Pixels outside the level or on
 * no-data cells stay transparent.
 * @returns null when the tile does not overlap the level, else the packed pixels
 */
export function renderTile(level: RasterLevel, z: number, x: number, y: number, colorOf: (v: number) => number, tileSize = 256): Uint32Array | null {
  const [w, s, e, n] = tileBounds(z, x, y);
  const [xmin, ymin, xmax, ymax] = level.bbox;
  if (e <= xmin || w >= xmax || n <= ymin || s >= ymax) return null;
  const cw = (xmax - xmin) / level.width;
  const ch = (ymax - ymin) / level.height;
  const cols = new Int32Array(tileSize);
  for (let px = 0; px < tileSize; px++) {
    const c = Math.floor((pixelLon(z, x, px, tileSize) - xmin) / cw);
    cols[px] = c >= 0 && c < level.width ? c : -1;
  }
  const out = new Uint32Array(tileSize * tileSize);
  const vals = level.values;
  let any = false;
  for (let py = 0; py < tileSize; py++) {
    const r = Math.floor((ymax - pixelLat(z, y, py, tileSize)) / ch);
    if (r < 0 || r >= level.height) continue;
    const base = r * level.width;
    const o = py * tileSize;
    for (let px = 0; px < tileSize; px++) {
      const c = cols[px];
      if (c < 0) continue;
      const v = vals[base + c];
      if (v !== v) continue; // NaN
      const rgba = colorOf(v);
      if (rgba !== 0) { out[o + px] = rgba; any = true; }
    }
  }
  return any ? out : null;
}

/**
 * Picks the coarsest level whose pixel is no larger than the screen pixel at zoom `z`
 * (at the equator), so a tile never shows coarser data than the screen can resolve.
 * @param levelCellDeg cell size in degrees of each level, finest first
 * @returns index into `levelCellDeg`
 */
export function levelForZoom(levelCellDeg: number[], z: number, tileSize = 256): number {
  const screenDeg = 360 / (tileSize * 2 ** z);
  let best = 0;
  for (let i = 0; i < levelCellDeg.length; i++) if (levelCellDeg[i] <= screenDeg * 1.0001) best = i;
  return best;
}
