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
  const cache = new Map<number, Promise<RasterLevel>>();
  const done = new Map<number, RasterLevel>();
  const keep = (i: number, l: RasterLevel) => { done.set(i, l); return l; };
  return {
    code,
    levelCellDeg: [...b],
    level(i) {
      let p = cache.get(i);
      if (!p) {
        p = Promise.all([from.level(i), to.level(i)]).then(([x, y]) => keep(i, changeLevel(x, y, mode)));
        p.catch(() => cache.delete(i));
        cache.set(i, p);
      }
      return p;
    },
    peek(i) {
      const l = done.get(i);
      if (l) return l;
      const x = from.peek(i), y = to.peek(i);
      if (!x || !y) return undefined;
      const c = keep(i, changeLevel(x, y, mode));
      cache.set(i, Promise.resolve(c));
      return c;
    },
    loaded: () => [...cache.keys()],
    bytes: () => { let n = 0; for (const l of done.values()) n += l.values.byteLength; return n; },
  };
}
