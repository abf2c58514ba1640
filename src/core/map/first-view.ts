/**
 * Where the map's first view is, computed without the map (issue 26 target 4): the camera
 * MapLibre takes for `bounds` fitted into a viewport, the raster tiles it asks for there and
 * where each lands on screen, so a preview image drawn from the same tiles sits exactly where
 * the live map will draw them. Formulas as MapLibre 6's Web Mercator camera
 * (`cameraForBoxAndBearing` with bearing 0: the zoom that fits the box's projected size into
 * the viewport less the padding, at most `maxZoom`; the centre the midpoint of the projected
 * box) and tile cover (`coveringZoomLevel`: a raster source rounds `zoom + log2(512 /
 * tileSize)`). World size at zoom z: 512 * 2^z CSS pixels (MapLibre's convention). Pure.
 */

import { mercX, mercY, WORLD_PX } from './mercator';
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
