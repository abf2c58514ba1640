/**
 * Shapes of the catchment (marketshed) query, shared by the engine (query.ts), the HTTP
 * contract (src/contract/methods/catchment.ts), the writers (files.ts) and the app's
 * Catchment panel. Re-exported by src/core/api/index.ts (the `api` room).
 *
 * Units are in the names: minutes, km, km2, degrees (EPSG:4326, longitude first).
 */
import type { GridDef } from '../grid';
import type { TableResult, VarRecord } from '../types';

/** Moves of the travel-time graph: 8 (king's moves) or 16 (also knight's moves, as GRASS `r.cost -k`). */
export type Neighbours = 8 | 16;

/**
 * Where travel starts: "cell" (the source cell is at 0 minutes and steps run between cell
 * centres; the answer of issue 19, the default) or "point" (from the source point itself:
 * the source cell's time is the time from the point to its centre, and each neighbour is
 * reached straight from the point, so a point near a cell edge reaches that side sooner).
 */
export type CatchmentOrigin = 'cell' | 'point';

/** Arguments of the catchment query (the contract's names in snake case: `snap_km`, `capacity`). */
export interface CatchmentArgs {
  /** Source points, [longitude, latitude] degrees (EPSG:4326); or give `wkt`. At most 1,000, no two the same. */
  xy?: Array<[number, number]>;
  /** Source points as WKT POINT or MULTIPOINT (EPSG:4326), instead of `xy`. */
  wkt?: string;
  /** Band breaks, minutes, increasing (default 0, 60, 120, 240, 480); at most `MAX_BREAKS` (100). */
  minutes?: number[];
  /** Friction layer code (default: the first friction layer of the catalog). */
  friction?: string;
  /** Indicator codes summarised per band (default none). */
  var?: string[];
  /** Countries or regions whose cells are counted and summarised (default SSA: all); travel crosses borders. */
  iso3?: string[];
  /** One name per source, in source order, each 1-200 characters, all different (default "source 1", "source 2", ...). */
  names?: string[];
  /** True: rows per source x band (each cell belongs to its nearest source by travel time), with `source` and `source_id` columns, then the all-sources rows. Default false (one row per band). */
  marketshed?: boolean;
  /** True: bands `[0,60]`, `[0,120]`, ... (every cell within the upper break) instead of `[0,60]`, `(60,120]`, ... Default false. */
  cumulative?: boolean;
  /** 8 (default) or 16 (adds knight's moves: less metrication error on oblique paths). */
  neighbours?: Neighbours;
  /** A source on a no-data cell moves to the nearest passable cell within this distance, km (default 10; 0: no move). */
  snapKm?: number;
  /** Where travel starts (default "cell"; see {@link CatchmentOrigin}). */
  origin?: CatchmentOrigin;
  /**
   * People each source can serve (coverage, as AccessMod's geographic coverage): one number
   * per source, or one for all; >= 0. Each source takes the cells of its marketshed in
   * travel-time order until its capacity or the last break is reached.
   */
  capacity?: number[];
  /** Population layer counted by `capacity` (people per cell, summed; default: the catalog's population layer, see `defaultPopulationCode`). */
  population?: string;
}

/** A source as used: where it was given, where travel starts, and whether it was moved. */
export interface CatchmentSource {
  /** Name (from `names`, else "source k", 1-based). */
  name: string;
  /** Point as given, degrees. */
  lon: number;
  lat: number;
  /** CELL5M id of the cell travel starts from. */
  cell: number;
  /** Set when the point lay on a no-data cell and was moved to the nearest passable cell (`snap_km`). */
  snapped?: {
    /** Centre of the cell used, degrees. */
    lon: number;
    lat: number;
    /** Geodesic distance from the point given to that centre, km (WGS84). */
    km: number;
  };
  /** A sentence for people: "Off Mombasa moved 7.9 km to the nearest land cell, centred at (39.7083, -4.0417) ..." (absent when not moved). */
  note?: string;
}

/** One band of a catchment (all sources together). */
export interface CatchmentBand {
  /** Label as R cut(include.lowest = TRUE): "[0,60]", "(60,120]"; cumulative: "[0,60]", "[0,120]". */
  label: string;
  /** Lower break, minutes (0 for every cumulative band). */
  fromMinutes: number;
  /** Upper break, minutes. */
  toMinutes: number;
  /** CELL5M ids of the band's cells (within `iso3`). */
  ids: number[];
  /** Sum of the cells' geodesic areas, km2. */
  areaKm2: number;
}

/** Coverage of one source with a capacity. */
export interface SourceCoverage {
  /** Source index (0-based, as in `sources`). */
  source: number;
  /** Capacity, people. */
  capacity: number;
  /** People covered (<= capacity; the last cell taken may be covered in part). */
  covered: number;
  /** Cells taken (the last one may be in part). */
  cells: number;
  /** Travel time of the last cell taken, minutes (NaN when none). */
  minutes: number;
  /** People of the source's marketshed within the last break. */
  inReach: number;
}

/** Coverage with capacity: per source and overall. */
export interface CatchmentCoverage {
  /** The population layer counted. */
  population: VarRecord;
  /** Per source, in source order. */
  sources: SourceCoverage[];
  /** People within the last break of any source (within `iso3`). */
  inReach: number;
  /** People covered by all sources. */
  covered: number;
  /** People within the last break not covered (inReach - covered). */
  uncovered: number;
  /** Per window cell: 1 covered (in full or in part), 0 not (the map of coverage). */
  coveredCells: Uint8Array;
}

/** Result of the catchment query. */
export interface CatchmentResult {
  /**
   * The summary table: one row per band (band, minutes_from, minutes_to, cells, area_km2, the
   * summaries of `var`); with `marketshed` first the rows per source x band (source,
   * source_id, then the same columns), then the all-sources rows per band (no source).
   */
  table: TableResult;
  /** The bands (all sources), in break order. */
  bands: CatchmentBand[];
  /** Breaks, minutes. */
  breaks: number[];
  /** The friction layer's record. */
  friction: VarRecord;
  /** The window of cells within the largest band (a grid on the same lattice). */
  grid: GridDef;
  /** Travel time per window cell, minutes; NaN beyond the largest band, unreachable, or outside `iso3`. */
  minutes: Float32Array;
  /** Band index per window cell (-1: in no band); cumulative: the first band holding the cell. */
  band: Int8Array;
  /** Nearest source per window cell (index into `sources`; -1 where `minutes` is NaN). */
  source: Int16Array;
  /** The sources, in input order. */
  sources: CatchmentSource[];
  /** Options used. */
  marketshed: boolean;
  cumulative: boolean;
  neighbours: Neighbours;
  origin: CatchmentOrigin;
  /** Cell size at the sources' mean latitude, km (east-west x north-south), and its area, km2. */
  cell: { ewKm: number; nsKm: number; areaKm2: number };
  /**
   * Sentences for people, in order: the cell size and what it implies ("Cells are 9.2 x 9.2 km
   * (85 km2): bands under about 2 h hold few cells; ..."), each moved source.
   */
  notes: string[];
  /** Coverage with capacity (only when `capacity` was given). */
  coverage?: CatchmentCoverage;
}
