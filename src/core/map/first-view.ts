/**
 * Where the map's first view is, computed without the map (issue 26 target 4): the camera
 * MapLibre takes for `bounds` fitted into a viewport, the raster tiles it asks for there and
 * where each lands on screen, so a preview image drawn from the same tiles sits exactly where
 * the live map will draw them. Formulas as MapLibre 6's Web Mercator camera
 * (`cameraForBoxAndBearing` with bearing 0: the zoom that fits the box's projected size into
 * the viewport less the padding, at most `maxZoom`; the centre the midpoint of the projected
 * box) and tile cover (`coveringZoomLevel`: a raster source rounds `zoom + log2(512 /
 * tileSize)`), and the camera once the preview has been panned and zoomed by hand (so the live
 * map starts where the hand left it). World size at zoom z: 512 * 2^z CSS pixels (MapLibre's convention). Pure.
 */

import { latOfMercY, mercX, mercY, WORLD_PX } from './mercator';
import { fitView, projectView } from './render-view';

/** A camera: centre longitude and latitude (degrees) and zoom (MapLibre's, 512-px world at zoom 0). */
export interface MapCamera {
  lng: number;
  lat: number;
  zoom: number;
}

/** A raster tile of the first view and its place in the viewport (CSS pixels from the top-left corner). */
export interface PlacedTile {
  z: number;
  x: number;
  y: number;
  leftPx: number;
  topPx: number;
  /** Width and height the tile is drawn at (CSS pixels). */
  sizePx: number;
}

/**
 * The camera of a map made with `bounds` and `fitBoundsOptions: { padding }` in a
 * `widthPx` x `heightPx` container (bearing 0, no pitch), zoom clamped to [minZoom, maxZoom].
 * @param bounds [west, south, east, north] degrees
 * @returns null when the viewport has no room inside the padding (MapLibre then keeps its default camera)
 */
export function fitCamera(bounds: readonly [number, number, number, number], widthPx: number, heightPx: number, paddingPx: number, minZoom: number, maxZoom: number): MapCamera | null {
  const innerW = widthPx - 2 * paddingPx, innerH = heightPx - 2 * paddingPx;
  if (!(innerW > 0 && innerH > 0)) return null;
  const v = fitView([bounds[0], bounds[1], bounds[2], bounds[3]], innerW, innerH, maxZoom);
  if (!Number.isFinite(v.zoom)) return null;
  return { lng: v.centerLon, lat: v.centerLat, zoom: Math.max(minZoom, v.zoom) };
}

/**
 * The tiles of a raster source (`tileSize` px, zooms `minZoom`..`maxZoom`, limited to
 * `bounds`) that a `widthPx` x `heightPx` map at `camera` draws, each with its place on screen.
 * @param bounds [west, south, east, north] degrees of the source (its `bounds`): tiles outside are not asked for
 */
export function viewTiles(camera: MapCamera, widthPx: number, heightPx: number, bounds: readonly [number, number, number, number], tileSize = 256, minZoom = 0, maxZoom = 16): PlacedTile[] {
  const z = Math.max(minZoom, Math.min(maxZoom, Math.max(0, Math.round(camera.zoom + Math.log2(WORLD_PX / tileSize)))));
  const n = 2 ** z;
  const world = WORLD_PX * 2 ** camera.zoom;
  const tilePx = world / n;
  const left = mercX(camera.lng) * world - widthPx / 2, top = mercY(camera.lat) * world - heightPx / 2;
  // tiles of the source's bounds that are in view
  const col = (px: number) => Math.floor(px / tilePx), clampT = (t: number) => Math.max(0, Math.min(n - 1, t));
  const xa = clampT(Math.max(col(left), Math.floor(mercX(bounds[0]) * n))), xb = clampT(Math.min(col(left + widthPx), Math.floor(mercX(bounds[2]) * n - 1e-9)));
  const ya = clampT(Math.max(col(top), Math.floor(mercY(bounds[3]) * n))), yb = clampT(Math.min(col(top + heightPx), Math.floor(mercY(bounds[1]) * n - 1e-9)));
  const out: PlacedTile[] = [];
  for (let y = ya; y <= yb; y++) for (let x = xa; x <= xb; x++) out.push({ z, x, y, leftPx: x * tilePx - left, topPx: y * tilePx - top, sizePx: tilePx });
  return out;
}

/**
 * The screen position (CSS pixels from the viewport's top-left corner) of `lng`, `lat` on a
 * `widthPx` x `heightPx` map at `camera`.
 */
export function screenPoint(camera: MapCamera, widthPx: number, heightPx: number, lng: number, lat: number): [number, number] {
  return projectView({ centerLon: camera.lng, centerLat: camera.lat, zoom: camera.zoom, cssW: widthPx, cssH: heightPx }, lng, lat);
}

/**
 * A 2-D similarity of the screen without rotation: a screen point `p` (CSS px from the
 * viewport's top-left corner) moves to `scale * p + [txPx, tyPx]`, as the CSS transform
 * `translate(txPx px, tyPx px) scale(scale)` with `transform-origin: 0 0` moves it.
 */
export interface ScreenMove {
  /** Scale factor (> 0; 2 = twice as large: one zoom level in). */
  scale: number;
  txPx: number;
  tyPx: number;
}

/** The move that leaves the screen as it is. */
export const NO_MOVE: ScreenMove = { scale: 1, txPx: 0, tyPx: 0 };

/** `m` followed by a pan of `dxPx`, `dyPx` CSS px (a drag, an arrow key). */
export function panMove(m: ScreenMove, dxPx: number, dyPx: number): ScreenMove {
  return { scale: m.scale, txPx: m.txPx + dxPx, tyPx: m.tyPx + dyPx };
}

/**
 * `m` followed by a scale of `k` about the screen point `xPx`, `yPx` (the wheel or a pinch
 * about the pointer: that point stays where it is: `p' = k (p - a) + a`), with the total scale
 * kept within `2^(minZoom - zoom0)`..`2^(maxZoom - zoom0)` so the camera's zoom stays in the
 * map's [minZoom, maxZoom] (MapLibre clamps its zoom the same way).
 * @param zoom0 the zoom of the camera `m` moves (the preview's first camera)
 */
export function zoomMove(m: ScreenMove, k: number, xPx: number, yPx: number, zoom0: number, minZoom: number, maxZoom: number): ScreenMove {
  const scale = Math.max(2 ** (minZoom - zoom0), Math.min(2 ** (maxZoom - zoom0), m.scale * k));
  const kk = scale / m.scale; // the scale actually applied
  return { scale, txPx: kk * m.txPx + xPx * (1 - kk), tyPx: kk * m.tyPx + yPx * (1 - kk) };
}

/**
 * The camera a `widthPx` x `heightPx` map at `cam` has once its picture is moved by `m`: what is
 * then at the screen's centre, at zoom `cam.zoom + log2(m.scale)`. Web Mercator with a world of
 * 512 * 2^zoom CSS px (MapLibre's `Transform`: `worldSize = tileSize * 2^zoom`, tileSize 512;
 * `zoom = scaleZoom(scale) = log2(scale)`): the screen centre `c` shows the point that was at
 * `(c - t) / scale` before, i.e. `(c - t) / scale - c` CSS px from the old centre at the old
 * zoom. So a pan of N px at zoom z moves the centre by -N * 360 / (512 * 2^z) degrees of
 * longitude (the map follows the hand: the centre moves the other way). Latitude is kept
 * within +-85.051129 degrees (the Mercator world's edge); zoom is not clamped here ({@link zoomMove} does).
 * @returns the new camera (degrees, MapLibre zoom)
 */
export function movedCamera(cam: MapCamera, widthPx: number, heightPx: number, m: ScreenMove): MapCamera {
  const world0 = WORLD_PX * 2 ** cam.zoom;
  const cx = widthPx / 2, cy = heightPx / 2;
  const x = mercX(cam.lng) * world0 + (cx - m.txPx) / m.scale - cx;
  const y = mercY(cam.lat) * world0 + (cy - m.tyPx) / m.scale - cy;
  const yFrac = Math.max(0, Math.min(1, y / world0));
  return { lng: (x / world0) * 360 - 180, lat: latOfMercY(yFrac), zoom: cam.zoom + Math.log2(m.scale) };
}
