/**
 * A gridded series' change map in the raster worker, warm (both years' levels read): what
 * `styleCogChange` and the tiles cost on top of drawing one year. The two "years" are two
 * people layers of the embedded bundle on the same grid (CENSUS_POP as the first, POP_MODEL as
 * the second: the embedded bundle holds no gridded series; the cost depends on the grid only).
 * Levels are read once by the core COG store (src/core/cog/store.ts); then, each the median of
 * 7 runs in this process:
 *
 * - `change level 0`: the per-cell `pct` change of the full-resolution levels (changeLevel,
 *   src/core/map/change.ts, as workers/raster/change-layer.ts computes it once per level);
 * - `change palette`: the breaks of the coarsest level's change (changePalette, as styleCogChange);
 * - `draw, change` / `draw, one year` (the reference): the 256 px tiles covering Kenya at zoom 6
 *   (renderTile, src/core/map/mercator.ts) from the full-resolution change, and from the second
 *   year's own level in the record's classes; their ratio.
 *
 * Run: `npx tsx bench/change-map.ts` (a few seconds).
 */
import path from 'node:path';
import { createNodeEngine } from '../src/node/engine';
import { changeLevel } from '../src/core/map/change';
import { changePalette } from '../src/core/map/diverging';
import { makeColorizer, paletteFor } from '../src/core/map/palette';
import { renderTile, type RasterLevel } from '../src/core/map/mercator';

const DIR = path.resolve(import.meta.dirname, '../public/data');
const RUNS = 7;

/** Median ms of `RUNS` runs of `f`. */
function median(f: () => void): number {
  const t: number[] = [];
  for (let i = 0; i < RUNS; i++) { const t0 = performance.now(); f(); t.push(performance.now() - t0); }
  return t.sort((a, b) => a - b)[RUNS >> 1];
}

/** Level `ifd` of `cog/<code>.tif` as the worker holds it. */
async function level(store: ReturnType<typeof createNodeEngine>['store'], code: string, ifd: number): Promise<RasterLevel> {
  const p = `cog/${code}.tif`;
  const infos = await store.levels(p);
  const i = infos[Math.min(ifd, infos.length - 1)], g = infos[0].geo!;
  const values = await store.readFloat(p, [0, 0, i.width, i.height], undefined, Math.min(ifd, infos.length - 1));
  return { width: i.width, height: i.height, bbox: [g.xmin, g.ymax - infos[0].height * g.resY, g.xmin + infos[0].width * g.resX, g.ymax], values };
}

/** Tiles (z, x, y) covering Kenya (33.9E..41.9E, 4.7S..5.1N) at zoom `z`. */
function tiles(z: number): Array<[number, number, number]> {
  const n = 2 ** z;
  const tx = (lon: number) => Math.floor(((lon + 180) / 360) * n);
  const ty = (lat: number) => Math.floor(((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * n);
  const out: Array<[number, number, number]> = [];
  for (let x = tx(33.9); x <= tx(41.9); x++) for (let y = ty(5.1); y <= ty(-4.7); y++) out.push([z, x, y]);
  return out;
}

async function main() {
  const e = createNodeEngine(DIR);
  const cat = await e.loadCatalog();
  const [from, to] = await Promise.all([level(e.store, 'CENSUS_POP', 0), level(e.store, 'POP_MODEL', 0)]);
  const n = (await e.store.levels('cog/POP_MODEL.tif')).length - 1;
  const [fromC, toC] = await Promise.all([level(e.store, 'CENSUS_POP', n), level(e.store, 'POP_MODEL', n)]);
  let ch = changeLevel(from, to, 'pct');
  const tChange = median(() => { ch = changeLevel(from, to, 'pct'); });
  let pal = changePalette(changeLevel(fromC, toC, 'pct').values, 1);
  const tPalette = median(() => { pal = changePalette(changeLevel(fromC, toC, 'pct').values, 1); });
  const colorChange = makeColorizer(pal), colorYear = makeColorizer(paletteFor(cat.need('POP_MODEL')));
  const ts = tiles(6);
  const tDrawChange = median(() => { for (const [z, x, y] of ts) renderTile(ch, z, x, y, colorChange); });
  const tDrawYear = median(() => { for (const [z, x, y] of ts) renderTile(to, z, x, y, colorYear); });
  console.log(`grid ${to.width} x ${to.height} cells; coarsest level ${toC.width} x ${toC.height}; ${ts.length} tiles of Kenya at zoom 6`);
  console.log(`change level 0 (pct, once per level): ${tChange.toFixed(1)} ms`);
  console.log(`change palette (coarsest level): ${tPalette.toFixed(2)} ms`);
  console.log(`draw, change: ${tDrawChange.toFixed(1)} ms; draw, one year (reference): ${tDrawYear.toFixed(1)} ms; ratio ${(tDrawChange / tDrawYear).toFixed(2)}`);
  console.log(`first change draw, warm (level + palette + tiles): ${(tChange + tPalette + tDrawChange).toFixed(1)} ms`);
}

void main();
