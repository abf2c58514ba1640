/**
 * Messages of the map raster worker (workers/raster.worker.ts), shared by the worker and
 * the page (src/ui/raster/client.ts, the compare and hover panels). Types only.
 */
import type { GridDef } from '../../src/core/grid';
import type { Palette } from '../../src/core/map/palette';
import type { MercatorView } from '../../src/core/map/render-view';
import type { CellDomain } from '../../src/core/map/domain-mask';
import type { ChangeMode } from '../../src/core/map/change';
import type { ClassEntry, VarRecord } from '../../src/core/types';

/** Result of a look-up at a point. */
export interface CellInfo {
  /** CELL5M id. */
  cell5m: number;
  /** Cell centre longitude, degrees. */
  lon: number;
  /** Cell centre latitude, degrees. */
  lat: number;
  /** Value of the mapped layer (NaN = no data). */
  value: number;
  /** Class label for class layers. */
  valueLabel?: string;
  /** ISO 3166-1 alpha-3 code of the country. */
  iso3?: string;
  /** Country name. */
  country?: string;
  /** ADM1 unit name. */
  adm1?: string;
  /** ADM1 code (ADM1_CODE_ALT label). */
  adm1Code?: string;
  /** ADM1 raster value. */
  adm1Value?: number;
  /** ADM2 unit name (ADM2_NAME_ALT), when the catalog has that layer. */
  adm2?: string;
  /** ADM2 raster value. */
  adm2Value?: number;
}

/** The raster worker's Comlink API. */
export interface RasterWorkerApi {
  /** Sets the bundle root URL (ending in "/"). */
  init(base: string): void;
  /**
   * Registers a style for a bundle layer and returns its palette (for the legend).
   * @param key style key used in tile URLs
   * @param breaks class breaks in the layer's unit (default: the catalog's)
   * @param colors colours of the classes (default: the palette's)
   * @param domain the cells drawn (src/core/map/domain-mask.ts): every other cell is transparent; none: all cells
   */
  styleCog(key: string, rec: VarRecord, breaks?: number[], colors?: string[], domain?: CellDomain): Promise<Palette>;
  /**
   * Registers a style for the change between two years of a gridded series (`cog/<code>.tif` of
   * each year, on one grid) and returns its palette: `diff` = to - from (the layer's unit), `pct` =
   * 100 * (to - from) / from (%; no value where `from` is 0 or a year has none), six RdBu classes
   * on breaks symmetric about 0 (src/core/map/change.ts). The change is a layer of the worker
   * under `changeLayerCode(mode, codeFrom, codeTo)`: `cellInfo` with that code reads the change.
   * @param rec the series' record (decimals of a `diff`)
   */
  styleCogChange(key: string, rec: VarRecord, codeFrom: string, codeTo: string, mode: ChangeMode): Promise<Palette>;
  /** Registers a per-cell result (values row-major on `grid`, NaN = none) drawn with `palette`. */
  styleCells(key: string, grid: GridDef, values: Float64Array | Float32Array, palette: Palette): void;
  /** Opens a layer's COG and reads the level a zoom needs (its preview first), ahead of styling (first paint). */
  prefetch(code: string, zoom: number): Promise<void>;
  /**
   * Progressive drawing: tiles whose level is still being read are drawn from a coarser
   * level. Resolves when those reads for style `key` are done: true when the page should
   * draw the tiles again (a finer level is in), false when nothing was waited for.
   */
  refined(key: string): Promise<boolean>;
  /**
   * Draws a whole north-up view of style `key` at pxW x pxH device px (src/core/map/render-view.ts),
   * from the level its pixels need (read first when it is not yet: no preview; when it cannot be
   * read, offline, the finest coarser level read already): the map export's raster
   * (src/app/map-export-canvas.ts). Null when the style is unknown.
   * @throws when no level can be read
   */
  renderView(key: string, view: MercatorView, pxW: number, pxH: number): Promise<ImageBitmap | null>;
  /** Draws tile z/x/y (Web Mercator, 256 px) of style `key`; null when empty. */
  tile(key: string, z: number, x: number, y: number): Promise<ImageBitmap | null>;
  /** Look-up at a point (degrees) for the hover/click panel; null outside the grid. */
  cellInfo(code: string | null, lon: number, lat: number): Promise<CellInfo | null>;
  /** Colour (packed RGBA, 0 = transparent) that style `key` gives the cell containing a point. */
  colorAt(key: string, lon: number, lat: number): Promise<number>;
  /** The COG levels read so far, as [code, level index] pairs. */
  loadedLevels(): Promise<Array<[string, number]>>;
  /** Opens the COGs and reads the levels given as [code, level index] pairs; failures are skipped. */
  warm(levels: Array<[string, number]>): Promise<void>;
  /** Class table of a class layer (value, label, color, extras). */
  classTable(code: string): Promise<ClassEntry[]>;
  /**
   * The progressive drawing's pending notes: levels that tiles were drawn without (from a
   * coarser preview), as [style key, COG code, level index]. A worker that takes over
   * (src/ui/raster/client.ts) gets them with {@link RasterWorkerApi.noteRefining}.
   */
  refiningLevels(): Promise<Array<[string, string, number]>>;
  /** Adds notes of {@link RasterWorkerApi.refiningLevels} (from the worker taken over from); failed COG opens are skipped. */
  noteRefining(notes: Array<[string, string, number]>): Promise<void>;
}
