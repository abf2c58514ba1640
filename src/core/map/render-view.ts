/**
 * A whole Web Mercator view drawn from a raster level in one pass, without WebGL: the same
 * per-pixel rule as the map's tiles ({@link renderTile} in ./mercator.ts: each pixel takes the
 * colour of the EPSG:4326 cell containing its centre, nearest cell, no-data transparent), over
 * a view given as MapLibre gives it (centre, zoom on its 512-px world, size in CSS px, pixel
 * ratio). Used by the map export (src/app/map-export-canvas.ts) to compose an A4 page on a 2D
 * canvas instead of reading a WebGL frame back. Pure: no DOM.
 *
 * Projection: spherical Web Mercator (EPSG:3857) as MapLibre's `MercatorCoordinate`: x = (lon +
 * 180) / 360, y = (180 - ln(tan(pi/4 + lat/2)) * 180/pi) / 360, both times the world size
 * 512 * 2^zoom CSS px.
 */
import { latOfMercY, mercX, mercY, WORLD_PX, type RasterLevel } from './mercator';

export { latOfMercY, mercX, mercY } from './mercator';

/** A north-up map view (no bearing or pitch), as MapLibre describes one. */
export interface MercatorView {
  /** Longitude of the view's centre, degrees. */
  centerLon: number;
  /** Latitude of the view's centre, degrees (within +-85.0511). */
  centerLat: number;
  /** MapLibre zoom: the world is 512 * 2^zoom CSS px wide. */
  zoom: number;
  /** Width of the view in CSS px. */
  cssW: number;
  /** Height of the view in CSS px. */
  cssH: number;
}

/** CSS px of [lon, lat] in `v`, from its top-left corner (as MapLibre's `map.project`). */
export function projectView(v: MercatorView, lon: number, lat: number): [number, number] {
  const ws = WORLD_PX * 2 ** v.zoom;
  return [(mercX(lon) - mercX(v.centerLon)) * ws + v.cssW / 2, (mercY(lat) - mercY(v.centerLat)) * ws + v.cssH / 2];
}

/** [lon, lat] degrees of CSS px (x, y) in `v` (as MapLibre's `map.unproject`). */
export function unprojectView(v: MercatorView, x: number, y: number): [number, number] {
  const ws = WORLD_PX * 2 ** v.zoom;
  return [((x - v.cssW / 2) / ws + mercX(v.centerLon)) * 360 - 180, latOfMercY((y - v.cssH / 2) / ws + mercY(v.centerLat))];
}

/** [west, south, east, north] degrees of the view's edges. */
export function viewBounds(v: MercatorView): [number, number, number, number] {
  const [w, n] = unprojectView(v, 0, 0);
  const [e, s] = unprojectView(v, v.cssW, v.cssH);
  return [w, s, e, n];
}

/**
 * The view of `bounds` ([west, south, east, north] degrees) fitted into cssW x cssH CSS px with
 * no padding, as MapLibre's `fitBounds` / the `bounds` map option: centred on the bounds' Mercator
 * centre, the largest zoom at which they fit, at most `maxZoom`.
 */
export function fitView(bounds: [number, number, number, number], cssW: number, cssH: number, maxZoom = 22): MercatorView {
  const [w, s, e, n] = bounds;
  const dx = mercX(e) - mercX(w), dy = mercY(s) - mercY(n);
  const zoom = Math.min(maxZoom, Math.log2(Math.min(cssW / (dx * WORLD_PX), cssH / (dy * WORLD_PX))));
  const cx = (mercX(w) + mercX(e)) / 2, cy = (mercY(n) + mercY(s)) / 2;
  return { centerLon: cx * 360 - 180, centerLat: latOfMercY(cy), zoom, cssW, cssH };
}

/**
 * Index of the coarsest level whose cell is no larger than one device pixel of the view at the
 * equator, as the map's tiles pick theirs ({@link levelForZoom} of ./mercator.ts), so the image
 * is never coarser than its pixels can show.
 * @param levelCellDeg cell size in degrees of each level, finest first
 * @param pxW the image's width in device px
 */
export function levelForView(levelCellDeg: number[], v: MercatorView, pxW: number): number {
  const degPerPx = (360 * v.cssW) / (WORLD_PX * 2 ** v.zoom * pxW);
  let best = 0;
  for (let i = 0; i < levelCellDeg.length; i++) if (levelCellDeg[i] <= degPerPx * 1.0001) best = i;
  return best;
}

/**
 * Draws view `v` of `level` into pxW x pxH device pixels (the view's CSS px times its pixel
 * ratio): packed RGBA (little-endian uint32 per pixel, as ImageData wants), row-major from the
 * top-left; pixels outside the level or on no-data cells are 0 (transparent). Nearest cell: the
 * cell containing each pixel's centre. Runs of pixels in one cell and rows in one cell row are
 * coloured once (`colorOf` is called at most once per run).
 * @param colorOf packed colour of a value (0 = transparent), e.g. `makeColorizer` of ./palette.ts
 */
export function renderView(level: RasterLevel, v: MercatorView, pxW: number, pxH: number, colorOf: (value: number) => number): Uint32Array {
  const out = new Uint32Array(pxW * pxH);
  const [xmin, ymin, xmax, ymax] = level.bbox;
  const cw = (xmax - xmin) / level.width, ch = (ymax - ymin) / level.height;
  const kx = v.cssW / pxW, ky = v.cssH / pxH;
  const cols = new Int32Array(pxW);
  for (let px = 0; px < pxW; px++) {
    const c = Math.floor((unprojectView(v, (px + 0.5) * kx, 0)[0] - xmin) / cw);
    cols[px] = c >= 0 && c < level.width ? c : -1;
  }
  const vals = level.values;
  let lastRow = -1;
  for (let py = 0; py < pxH; py++) {
    const r = Math.floor((ymax - unprojectView(v, 0, (py + 0.5) * ky)[1]) / ch);
    if (r < 0 || r >= level.height) { lastRow = -1; continue; }
    const o = py * pxW;
    if (r === lastRow) { out.copyWithin(o, o - pxW, o); continue; }
    lastRow = r;
    const base = r * level.width;
    let lastC = -2, rgba = 0;
    for (let px = 0; px < pxW; px++) {
      const c = cols[px];
      if (c < 0) continue;
      if (c !== lastC) {
        lastC = c;
        const x = vals[base + c];
        rgba = x !== x ? 0 : colorOf(x); // NaN: no data
      }
      out[o + px] = rgba;
    }
  }
  return out;
}
