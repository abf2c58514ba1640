/**
 * The engine's bundle context: the catalog (vi.csv, iso.csv, class tables), the grid
 * (manifest.json, else SSA_GRID) and the ISO3 classes in label order; and reading one layer's
 * window from its COG, checked against the grid.
 */
import { layerPath, manifestGrid, type Bundle } from '../bundle';
import { Catalog } from '../catalog';
import type { CogStore, LayerData, PixelWindow } from '../cog/store';
import { IndapiError } from '../errors';
import type { GridDef } from '../grid';
import type { ClassEntry, VarRecord } from '../types';

/** What every query of a bundle needs, loaded once. */
export interface Ctx {
  /** The catalog (records, countries and regions, class tables on demand). */
  cat: Catalog;
  /** The bundle grid (manifest.json's, else SSA_GRID). */
  grid: GridDef;
  /** vi.csv as read (the `catalogCsv` answer). */
  viText: string;
  /** ISO3 classes sorted by label. */
  isoClasses: ClassEntry[];
  /** ISO3 raster value -> position in `isoClasses` (-1: none). */
  isoIndex: Int32Array;
  /** The year a query reads series at (src/core/engine/years.ts); absent outside a series query. */
  year?: number;
}

/**
 * Loads the context of a bundle (its reader, src/core/bundle/open.ts).
 * @throws IndapiError IO when vi.csv or iso.csv cannot be read, manifest.json is not JSON or the catalog has no ISO3 layer
 */
export async function loadContext(bundle: Bundle): Promise<Ctx> {
  // the country classes are read beside the catalog, not after it (one round trip less on a slow link)
  bundle.classTable('ISO3').catch(() => undefined);
  const [viText, cat, manifest] = await Promise.all([bundle.catalogText(), Catalog.open(bundle), bundle.optionalManifest()]);
  const grid = manifestGrid(manifest);
  if (!cat.get('ISO3')) throw new IndapiError('IO', 'The catalog has no ISO3 layer (the country mask).');
  const isoClasses = [...(await cat.classes('ISO3'))].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const maxV = isoClasses.reduce((m, c) => Math.max(m, c.value), 0);
  const isoIndex = new Int32Array(maxV + 1).fill(-1);
  isoClasses.forEach((c, i) => { if (c.value >= 0) isoIndex[c.value] = i; });
  return { cat, grid, viText, isoClasses, isoIndex };
}

/**
 * A national series of `c.year` on a window: every cell carries its country's value (ISO3
 * raster value -> ISO3 code -> series/national.csv), NaN where the country has none that year or
 * the cell no country.
 * @throws IndapiError BAD_ARGUMENT when the query has no year (src/core/engine/years.ts sets it), IO, ABORTED
 */
async function readNational(store: CogStore, c: Ctx, rec: VarRecord, win: PixelWindow, signal?: AbortSignal): Promise<Float64Array> {
  if (c.year === undefined) throw new IndapiError('BAD_ARGUMENT', `'year': ${rec.varCode} is a national series; no year was chosen.`);
  const byIso = c.cat.national?.values.get(rec.varCode)?.get(c.year);
  const iso = await store.readInt(layerPath('ISO3'), win, signal);
  const lookup = new Float64Array(c.isoIndex.length).fill(NaN);
  for (const e of c.isoClasses) {
    const v = byIso?.get(e.label);
    if (e.value >= 0 && e.value < lookup.length && v !== undefined) lookup[e.value] = v;
  }
  const out = new Float64Array(iso.length);
  for (let i = 0; i < iso.length; i++) out[i] = iso[i] >= 0 && iso[i] < lookup.length ? lookup[iso[i]] : NaN;
  return out;
}

/**
 * Reads a window of a layer: class values (Int32, no-data -1) for class layers, else values (src/core/cog/decode.ts;
 * no-data NaN); a national series (`dataType` national) as its countries' values of `c.year`: Float32 for plain Float32 files (`CogStore.readValues`: the same numbers in half the memory), else Float64.
 * @throws IndapiError IO when the COG is not on the bundle grid or cannot be read, ABORTED
 */
export async function readLayer(store: CogStore, c: Ctx, rec: VarRecord, win: PixelWindow, signal?: AbortSignal): Promise<LayerData> {
  if (rec.dataType === 'national') return readNational(store, c, rec, win, signal);
  const path = layerPath(rec.varCode);
  const info = await store.info(path, signal);
  if (info.width !== c.grid.width || info.height !== c.grid.height) {
    throw new IndapiError('IO', `cog/${rec.varCode}.tif is ${info.width} x ${info.height} cells, not the bundle grid's ${c.grid.width} x ${c.grid.height}.`);
  }
  return rec.type === 'class' ? store.readInt(path, win, signal) : store.readValues(path, win, signal);
}
