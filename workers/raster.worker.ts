/**
 * Map raster worker (Comlink): draws bundle COGs and per-cell results as Web Mercator
 * tiles (exact per-pixel reprojection, see src/core/map/mercator.ts) and answers
 * hover/click look-ups (value, CELL5M, country, ADM1) from the full-resolution arrays.
 */
import { expose, transfer } from 'comlink';
import { cellCentre, cellId, pointToColRow, SSA_GRID, type GridDef } from '../src/core/grid';
import type { ClassEntry, VarRecord } from '../src/core/types';
import { levelForZoom, renderTile, type RasterLevel } from '../src/core/map/mercator';
import { levelForView, renderView, type MercatorView } from '../src/core/map/render-view';
import { makeColorizer, paletteFor, quantileBreaks, type Palette } from '../src/core/map/palette';
import { keyLevelFor, maskToDomain, type CellDomain } from '../src/core/map/domain-mask';
import { openCog, previewLevel, type CogLayer } from './raster/layers';
import { changeLayer } from './raster/change-layer';
import { changeDec, changeLayerCode, parseChangeLayerCode, type ChangeMode } from '../src/core/map/change';
import { changePalette } from '../src/core/map/diverging';
import { openBundle, type Bundle } from '../src/core/bundle';
import { fetchTextLoader } from '../src/core/io/fetch-source';
import type { CellInfo, RasterWorkerApi } from './protocol/raster';

let dataBase = '';
/** The bundle's reader (src/core/bundle/open.ts) over fetch: manifest, catalog and class tables. */
let bundle: Bundle = openBundle({ text: fetchTextLoader('') });
const cogs = new Map<string, Promise<CogLayer>>();
/** Styles by key: palette + source (a COG code or a custom per-cell layer), and the domain a COG is drawn in (none: everywhere). */
const styles = new Map<string, { source: string; colorOf: (v: number) => number; palette: Palette; domain?: CellDomain }>();
/** Custom per-cell layers (query results), by key. */
const custom = new Map<string, RasterLevel>();
/** Codes of class layers (their hover shows the class label): the catalog's `type`, read at init. */
const classCodes = new Set<string>();
/** The bundle's window (manifest.json `grid`; SSA_GRID until read or when absent). */
let grid: GridDef = SSA_GRID;
// manifest.json and vi.csv are read on the first look-up (hover, click), not at start: the
// tiles need neither, and a first visit on a slow network should not wait on them (issue 17)
let gridRead: Promise<void> | undefined;
let catalogRead: Promise<void> | undefined;
/** Reads the bundle's window once. Never rejects. */
function readGrid(): Promise<void> {
  return (gridRead ??= bundle.grid()
    .then((g) => { grid = g; })
    .catch(() => undefined));
}
/** Reads the codes of the class layers from the catalog once. Never rejects. */
function readCatalog(): Promise<void> {
  return (catalogRead ??= bundle.catalog()
    .then((recs) => { for (const rec of recs) if (rec.type === 'class') classCodes.add(rec.varCode); })
    .catch(() => undefined));
}

/**
 * Bytes of level values the open layers may hold (the least recently used layers are closed
 * beyond it, the one in use never): 12 layers of Float32 levels on the widest documented
 * window (1188 x 912 cells plus overviews); scaled and Float64 layers hold Float64 values
 * (src/core/cog/decode.ts), so fewer of them fit.
 */
const LEVEL_BYTES = 12 * 1188 * 912 * 4 * 4 / 3;
/** Layers whose levels are counted (settled opens). */
const opened = new Map<string, CogLayer>();

function cog(code: string): Promise<CogLayer> {
  let p = cogs.get(code);
  if (p) { cogs.delete(code); cogs.set(code, p); } // most recently used last
  else {
    // a change layer of a gridded series (src/core/map/change.ts): both years' COGs, opened as layers of their own
    const chg = parseChangeLayerCode(code);
    p = chg ? Promise.all([cog(chg.codeFrom), cog(chg.codeTo)]).then(([a, b]) => changeLayer(code, a, b, chg.mode)) : openCog(dataBase, code);
    const q = p;
    q.then((l) => { if (cogs.get(code) === q) opened.set(code, l); }, () => { if (cogs.get(code) === q) cogs.delete(code); });
    cogs.set(code, p);
  }
  let bytes = 0;
  for (const l of opened.values()) bytes += l.bytes();
  for (const old of cogs.keys()) {
    if ((bytes <= LEVEL_BYTES && cogs.size <= 12) || old === code) break;
    bytes -= opened.get(old)?.bytes() ?? 0;
    cogs.delete(old);
    opened.delete(old);
  }
  return p;
}
/** A class layer's table (`classes/<code>.csv`, read once by the bundle reader). @throws IndapiError IO */
function classes(code: string): Promise<ClassEntry[]> {
  return bundle.classTable(code);
}

/**
 * Progressive drawing: a tile whose level has not been read is drawn from a coarser level
 * (see `previewLevel`), and the level it needs is noted here by style key. The page asks
 * {@link RasterWorkerApi.refined} when its map is idle, that is once the previews are on
 * screen; only then is the finer level read, and the page draws the tiles again. On a slow
 * network the first map comes from a quarter of the bytes, the finer read does not compete
 * with what the first map still needs (MapLibre's worker), and a zoom shows coarse cells at
 * once instead of an empty map.
 */
const refining = new Map<string, Map<CogLayer, Set<number>>>();

/** The level a tile at zoom `z` of style `key` is drawn from now: the level it needs when read, else a preview (the need noted). */
async function levelToDraw(key: string, layer: CogLayer, z: number): Promise<RasterLevel> {
  const want = levelForZoom(layer.levelCellDeg, z);
  const ready = layer.peek(want);
  if (ready) return ready;
  const prev = previewLevel(layer, want);
  if (prev === undefined) return layer.level(want);
  noteRefine(key, layer, want);
  return layer.level(prev).catch(() => layer.level(want)); // no preview (a failed read): wait for the level itself
}

/** Notes that tiles of style `key` were drawn without level `level` of `layer` (see `refining`). */
function noteRefine(key: string, layer: CogLayer, level: number): void {
  let byLayer = refining.get(key);
  if (!byLayer) refining.set(key, (byLayer = new Map()));
  let levels = byLayer.get(layer);
  if (!levels) byLayer.set(layer, (levels = new Set()));
  levels.add(level);
}

/** Levels drawn only inside a style's domain, by level read and style key (computed once per level; the last {@link DOMAIN_STYLES_KEPT} styles of a level kept). */
const DOMAIN_STYLES_KEPT = 4;
const inDomain = new WeakMap<RasterLevel, Map<string, Promise<RasterLevel>>>();

/**
 * `level` as style `key` draws it: unchanged without a domain, else with the cells outside the
 * domain as no data (src/core/map/domain-mask.ts), each key layer read at the level of the same
 * cell size.
 * @throws IndapiError IO when a key layer cannot be read
 */
function drawnLevel(key: string, level: RasterLevel): Promise<RasterLevel> {
  const domain = styles.get(key)?.domain;
  if (!domain?.length) return Promise.resolve(level);
  const byKey = inDomain.get(level) ?? new Map<string, Promise<RasterLevel>>();
  inDomain.set(level, byKey);
  let p = byKey.get(key);
  if (!p) {
    const cellDeg = (level.bbox[2] - level.bbox[0]) / level.width;
    p = Promise.all(domain.map(async (d) => {
      const layer = await cog(d.code);
      return { level: await layer.level(keyLevelFor(layer.levelCellDeg, cellDeg)), values: new Set(d.values) };
    })).then((keys) => maskToDomain(level, keys));
    const q = p;
    q.catch(() => { if (byKey.get(key) === q) byKey.delete(key); });
    byKey.set(key, p);
    if (byKey.size > DOMAIN_STYLES_KEPT) byKey.delete(byKey.keys().next().value!);
  }
  return p;
}

async function valueAt(code: string, col: number, row: number): Promise<number> {
  const layer = await cog(code);
  const full = await layer.level(0);
  if (full.width !== grid.width || full.height !== grid.height) return NaN;
  const v = full.values[row * full.width + col];
  return typeof v === 'number' ? v : NaN;
}

const api: RasterWorkerApi = {
  /** Sets the bundle root URL (ending in "/"). */
  init(base: string) {
    dataBase = base;
    bundle = openBundle({ text: fetchTextLoader(base) });
    grid = SSA_GRID;
    gridRead = catalogRead = undefined;
  },

  /**
   * Registers a style for a bundle layer and returns its palette (for the legend).
   * @param key style key used in tile URLs
   * @param domain the cells drawn (a summary's units; every other cell transparent); none: all cells
   */
  async styleCog(key: string, rec: VarRecord, breaks?: number[], colors?: string[], domain?: CellDomain): Promise<Palette> {
    if (rec.type === 'class') classCodes.add(rec.varCode);
    const cl = rec.type === 'class' && rec.classTable ? await classes(rec.varCode).catch(() => undefined) : undefined;
    let palette = paletteFor(rec, cl, breaks);
    if (palette.kind === 'intervals' && palette.breaks.length < 2) {
      // no breaks in the catalog (an ingested record may have none): 7 quantile classes of the coarsest overview
      const layer = await cog(rec.varCode);
      const coarse = await layer.level(layer.levelCellDeg.length - 1);
      palette = paletteFor(rec, cl, quantileBreaks(coarse.values, 7, rec.dec));
    }
    if (colors?.length && palette.kind === 'intervals') palette.colors = palette.colors.map((_, i) => colors[i % colors.length]);
    styles.set(key, { source: rec.varCode, colorOf: makeColorizer(palette), palette, ...(domain?.length ? { domain } : {}) });
    await Promise.all([rec.varCode, ...(domain ?? []).map((d) => d.code)].map(cog));
    return palette;
  },

  /**
   * Registers a style for the change between two years of a gridded series and returns its
   * palette: the per-cell change of both years' COGs at each level (workers/raster/change-layer.ts),
   * RdBu classes on breaks symmetric about 0 taken from the coarsest level's changes.
   * @param rec the series' record (decimals of a `diff`)
   * @throws IndapiError IO when a COG cannot be read; BAD_ARGUMENT when they are not on one grid
   */
  async styleCogChange(key: string, rec: VarRecord, codeFrom: string, codeTo: string, mode: ChangeMode): Promise<Palette> {
    const code = changeLayerCode(mode, codeFrom, codeTo);
    const layer = await cog(code);
    const coarse = await layer.level(layer.levelCellDeg.length - 1);
    const palette = changePalette(coarse.values, changeDec(mode, rec.dec));
    styles.set(key, { source: code, colorOf: makeColorizer(palette), palette });
    return palette;
  },

  /** Registers a per-cell result (values row-major on `grid`, NaN = none) drawn with `palette`. */
  styleCells(key: string, grid: GridDef, values: Float64Array | Float32Array, palette: Palette) {
    custom.set(key, { width: grid.width, height: grid.height, bbox: [grid.xmin, grid.ymin, grid.xmax, grid.ymax], values });
    styles.set(key, { source: `custom:${key}`, colorOf: makeColorizer(palette), palette });
    if (custom.size > 6) { const k = custom.keys().next().value!; custom.delete(k); styles.delete(k); }
  },

  /**
   * Opens a layer's COG and reads, ahead of styling (first paint), what the first tiles at a
   * zoom are drawn from: the preview of the level that zoom needs (the level itself when it
   * has none); the finer level is read when the page asks {@link RasterWorkerApi.refined}.
   */
  async prefetch(code: string, zoom: number): Promise<void> {
    const layer = await cog(code);
    const want = levelForZoom(layer.levelCellDeg, Math.floor(zoom));
    await layer.level(previewLevel(layer, want) ?? want);
  },

  /**
   * Reads the levels that tiles of style `key` were drawn without (from a preview), and
   * resolves once they are read: true when at least one was (the page should draw the tiles
   * again), false when none was needed or every read failed.
   */
  async refined(key: string): Promise<boolean> {
    const byLayer = refining.get(key);
    if (!byLayer?.size) return false;
    refining.delete(key);
    const reads = [...byLayer].flatMap(([layer, levels]) => [...levels].map((i) => layer.level(i)));
    const r = await Promise.allSettled(reads);
    return r.some((x) => x.status === 'fulfilled');
  },

  /** The pending refinement notes as [style key, COG code, level index] (see `refining`). */
  async refiningLevels(): Promise<Array<[string, string, number]>> {
    const out: Array<[string, string, number]> = [];
    for (const [key, byLayer] of refining) for (const [layer, levels] of byLayer) for (const i of levels) out.push([key, layer.code, i]);
    return out;
  },

  /** Adds refinement notes handed over from another worker; a COG that cannot be opened is skipped. */
  async noteRefining(notes: Array<[string, string, number]>): Promise<void> {
    for (const [key, code, i] of notes) {
      const layer = await cog(code).catch(() => null);
      if (!layer || layer.peek(i)) continue; // read already: nothing left to refine
      noteRefine(key, layer, i);
    }
  },

  /** A whole view of style `key` at pxW x pxH device px, from the level its pixels need (see the protocol). */
  async renderView(key: string, view: MercatorView, pxW: number, pxH: number): Promise<ImageBitmap | null> {
    const st = styles.get(key);
    if (!st) return null;
    let level: RasterLevel | undefined;
    if (st.source.startsWith('custom:')) level = custom.get(key);
    else {
      const layer = await cog(st.source);
      const want = levelForView(layer.levelCellDeg, view, pxW);
      // a level that cannot be read (offline, its ranges never cached): the finest coarser one read already
      level = await layer.level(want).catch((e: unknown) => {
        for (let i = want + 1; i < layer.levelCellDeg.length; i++) { const l = layer.peek(i); if (l) return l; }
        throw e;
      });
      level = await drawnLevel(key, level);
    }
    if (!level) return null;
    const px = renderView(level, view, pxW, pxH, st.colorOf);
    const bmp = await createImageBitmap(new ImageData(new Uint8ClampedArray(px.buffer as ArrayBuffer), pxW, pxH));
    return transfer(bmp, [bmp]);
  },

  /** Draws tile z/x/y of style `key`; null when empty. */
  async tile(key: string, z: number, x: number, y: number): Promise<ImageBitmap | null> {
    const st = styles.get(key);
    if (!st) return null;
    let level: RasterLevel;
    if (st.source.startsWith('custom:')) {
      const c = custom.get(key);
      if (!c) return null;
      level = c;
    } else {
      level = await drawnLevel(key, await levelToDraw(key, await cog(st.source), z));
    }
    const px = renderTile(level, z, x, y, st.colorOf);
    if (!px) return null;
    const bmp = await createImageBitmap(new ImageData(new Uint8ClampedArray(px.buffer as ArrayBuffer), 256, 256));
    return transfer(bmp, [bmp]);
  },

  /** Look-up at a point for the hover/click panel; null outside the grid. */
  async cellInfo(code: string | null, lon: number, lat: number): Promise<CellInfo | null> {
    await readGrid();
    const cr = pointToColRow(grid, lon, lat);
    if (!cr) return null;
    const [col, row] = cr;
    const [clon, clat] = cellCentre(grid, col, row);
    const info: CellInfo = { cell5m: cellId(grid, col, row), lon: clon, lat: clat, value: NaN };
    const tasks: Promise<void>[] = [];
    tasks.push((async () => {
      const v = await valueAt('ISO3', col, row);
      if (Number.isNaN(v)) return;
      const t = await classes('ISO3');
      const e = t.find((c) => c.value === v);
      info.iso3 = e?.label; info.country = e ? String(e.name ?? e.label) : undefined;
    })().catch(() => undefined));
    tasks.push((async () => {
      const v = await valueAt('ADM1_NAME_ALT', col, row);
      if (Number.isNaN(v)) return;
      info.adm1Value = v;
      const names = await classes('ADM1_NAME_ALT');
      const e = names.find((c) => c.value === v);
      info.adm1 = e?.label;
      // the code: the name table's `code` extra (an ingested ADM1_CODE_ALT numbers its units apart), else the
      // ADM1_CODE_ALT label of the same value (read only when the catalog has that layer: no failed request)
      if (e?.code !== undefined && e.code !== '') info.adm1Code = String(e.code);
      else {
        await readCatalog();
        if (classCodes.has('ADM1_CODE_ALT')) info.adm1Code = (await classes('ADM1_CODE_ALT').catch(() => [] as ClassEntry[])).find((c) => c.value === v)?.label;
      }
    })().catch(() => undefined));
    tasks.push((async () => {
      await readCatalog();
      if (!classCodes.has('ADM2_NAME_ALT')) return; // no second-level layer: nothing requested
      const v = await valueAt('ADM2_NAME_ALT', col, row);
      if (Number.isNaN(v)) return;
      info.adm2Value = v;
      info.adm2 = (await classes('ADM2_NAME_ALT')).find((c) => c.value === v)?.label;
    })().catch(() => undefined));
    if (code) {
      tasks.push((async () => {
        info.value = await valueAt(code, col, row);
        await readCatalog();
        if (!Number.isNaN(info.value) && classCodes.has(code)) {
          const t = await classes(code).catch(() => null);
          if (t) info.valueLabel = t.find((c) => c.value === info.value)?.label;
        }
      })().catch(() => undefined));
    }
    await Promise.all(tasks);
    return info;
  },

  /**
   * Colour (packed RGBA, 0 = transparent) that style `key` gives the cell containing a
   * point, from the full-resolution values: the reference the map's pixels must match.
   */
  async colorAt(key: string, lon: number, lat: number): Promise<number> {
    const st = styles.get(key);
    await readGrid();
    const cr = pointToColRow(grid, lon, lat);
    if (!st || !cr || st.source.startsWith('custom:')) return 0;
    for (const d of st.domain ?? []) if (!d.values.includes(await valueAt(d.code, cr[0], cr[1]))) return 0;
    return st.colorOf(await valueAt(st.source, cr[0], cr[1]));
  },

  /**
   * The COG levels read so far, as [code, level index] pairs: a worker started later reads the
   * same (`warm`) so that the service worker caches their byte ranges (src/ui/raster/client.ts).
   */
  async loadedLevels(): Promise<Array<[string, number]>> {
    const out: Array<[string, number]> = [];
    for (const [code, p] of cogs) {
      const layer = await p.catch(() => null);
      if (layer) for (const i of layer.loaded()) out.push([code, i]);
    }
    return out;
  },

  /** Opens the COGs and reads the levels given as [code, level index] pairs; failures are skipped. */
  async warm(levels: Array<[string, number]>): Promise<void> {
    for (const [code, i] of levels) await cog(code).then((l) => l.level(i)).catch(() => undefined);
  },

  /** Class table of a class layer (value, label, color, extras). */
  classTable(code: string): Promise<ClassEntry[]> { return classes(code); },
};

expose(api);
