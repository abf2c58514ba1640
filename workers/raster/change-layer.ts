/**
 * The change between two years of a gridded series as a map layer of the raster worker: a
 * {@link CogLayer} whose level `i` is the per-cell change (src/core/map/change.ts) of level `i`
 * of both years' COGs (the same grid, so the same pyramid), computed once per level when both
 * are read. Tiles, the map export, hover (`cellInfo`) and `colorAt` read it as any layer.
 * Built only on the `CogLayer` interface (`level`, `peek`), whatever reads the COGs.
 */
import { changeLevel, type ChangeMode } from '../../src/core/map/change';
import type { RasterLevel } from '../../src/core/map/mercator';
import { IndapiError } from '../../src/core/errors';
import type { CogLayer } from './layers';

/** A level of the change: its computation, and the level itself once computed (what `peek` answers). */
interface Entry { promise: Promise<RasterLevel>; level?: RasterLevel }

/**
 * The change layer from `from` to `to`.
 * @param code the layer's code (src/core/map/change.ts `changeLayerCode`)
 * @param mode `diff` (to - from, the layer's unit) or `pct` (100 * (to - from) / from, %)
 * @throws IndapiError BAD_ARGUMENT when the two COGs do not have the same levels (not one grid)
 */
export function changeLayer(code: string, from: CogLayer, to: CogLayer, mode: ChangeMode): CogLayer {
  const a = from.levelCellDeg, b = to.levelCellDeg;
  if (a.length !== b.length || a.some((x, i) => Math.abs(x - b[i]) > 1e-12)) {
    throw new IndapiError('BAD_ARGUMENT', `${from.code} and ${to.code} are not on the same grid: no change map between them.`);
  }
  // one cache: a level's promise and, once it has resolved, the level (a failed read is dropped, so the next call reads again)
  const cache = new Map<number, Entry>();
  return {
    code,
    levelCellDeg: [...b],
    level(i) {
      const hit = cache.get(i);
      if (hit) return hit.promise;
      const e: Entry = { promise: Promise.all([from.level(i), to.level(i)]).then(([x, y]) => (e.level = changeLevel(x, y, mode))) };
      e.promise.catch(() => { if (cache.get(i) === e) cache.delete(i); });
      cache.set(i, e);
      return e.promise;
    },
    peek(i) {
      const hit = cache.get(i);
      if (hit?.level) return hit.level;
      const x = from.peek(i), y = to.peek(i);
      if (!x || !y) return undefined;
      const level = changeLevel(x, y, mode);
      cache.set(i, { promise: Promise.resolve(level), level });
      return level;
    },
    loaded: () => [...cache.keys()],
    bytes: () => { let n = 0; for (const e of cache.values()) n += e.level?.values.byteLength ?? 0; return n; },
  };
}
