/**
 * "Keep everything offline": which files of the bundle are its layers (the COGs the service
 * worker pins whole), whether a bundle is small enough to keep whole by default after the first
 * map (the embedded bundle, about 9 MB of layers), and what the header says is available offline.
 * Pure: manifest entries and the service worker's pins in, decisions and text out.
 */

/** Bundles whose layers add up to at most this many bytes are kept whole by default after the first map (larger ones keep the per-layer choice). */
export const KEEP_ALL_DEFAULT_MAX_BYTES = 50e6;

/** localStorage key: '0' when the person freed the kept layers (no keeping by default again on this device). */
export const KEEP_ALL_PREF = 'indapi3.keepAll';

/** The layer files of a manifest (`cog/<CODE>.tif`) and their total size in bytes. */
export function layerFiles(files: Array<{ path: string; bytes: number }>): { paths: string[]; bytes: number } {
  const l = files.filter((f) => /^cog\/[^/]+\.tif$/.test(f.path));
  return { paths: l.map((f) => f.path), bytes: l.reduce((s, f) => s + f.bytes, 0) };
}

/**
 * Whether to keep every layer now, without being asked: a small bundle (≤ {@link KEEP_ALL_DEFAULT_MAX_BYTES}),
 * layers not all kept yet, nothing being kept, and the person has not freed them before.
 */
export function keepAllByDefault(layers: { paths: string[]; bytes: number }, pinned: string[], pref: string | null, busy: boolean): boolean {
  if (busy || pref === '0' || !layers.paths.length || layers.bytes > KEEP_ALL_DEFAULT_MAX_BYTES) return false;
  const kept = new Set(pinned);
  return layers.paths.some((p) => !kept.has(p));
}

/**
 * The header's offline status: "Everything available offline" once every layer is kept, else
 * "Map and 3 of 27 layers offline" (the app, the map and the layers kept whole; viewed layers
 * are cached in part only); with a keeping job running, its progress.
 * @param progress fraction 0..1 of a running keep-everything job, or null
 */
export function offlineStatusText(layers: string[], pinned: string[], progress: number | null): string {
  if (progress !== null) return `Keeping everything offline… ${Math.round(progress * 100)} %`;
  const kept = new Set(pinned);
  const n = layers.filter((p) => kept.has(p)).length;
  return layers.length && n === layers.length ? 'Everything available offline' : `Map and ${n} of ${layers.length} layers offline`;
}
