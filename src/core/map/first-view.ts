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

/** MapLibre's world size at zoom 0 (CSS pixels). */
const WORLD_PX = 512;

/** Web Mercator x of `lng` as a fraction of the world's width (0 at 180°W). */
export function mercX(lng: number): number {
  return (lng + 180) / 360;
}

/** Web Mercator y of `lat` as a fraction of the world's height (0 at the north edge, about 85.05°N). */
export function mercY(lat: number): number {
  return (180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))) / 360;
}

/** Latitude (degrees) of the world fraction `y` (inverse of {@link mercY}). */
function latOf(y: number): number {
  return (360 / Math.PI) * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180)) - 90;
}

/**
 * The camera of a map made with `bounds` and `fitBoundsOptions: { padding }` in a
 * `widthPx` x `heightPx` container (bearing 0, no pitch), zoom clamped to [minZoom, maxZoom].
 * @param bounds [west, south, east, north] degrees
 * @returns null when the viewport has no room inside the padding (MapLibre then keeps its default camera)
 */
export function fitCamera(bounds: readonly [number, number, number, number], widthPx: number, heightPx: number, paddingPx: number, minZoom: number, maxZoom: number): MapCamera | null {
  const [w, s, e, n] = bounds;
  const x0 = mercX(w), x1 = mercX(e), y0 = mercY(n), y1 = mercY(s);
  const scale = Math.min((widthPx - 2 * paddingPx) / ((x1 - x0) * WORLD_PX), (heightPx - 2 * paddingPx) / ((y1 - y0) * WORLD_PX));
  if (!(scale > 0) || !Number.isFinite(scale)) return null;
  const zoom = Math.max(minZoom, Math.min(Math.log2(scale), maxZoom));
  return { lng: ((x0 + x1) / 2) * 360 - 180, lat: latOf((y0 + y1) / 2), zoom };
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
  const world = WORLD_PX * 2 ** camera.zoom;
  return [(mercX(lng) - mercX(camera.lng)) * world + widthPx / 2, (mercY(lat) - mercY(camera.lat)) * world + heightPx / 2];
}
