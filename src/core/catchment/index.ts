/**
 * Catchments (marketsheds): travel time from source points over a friction surface
 * (minutes per metre), and the cells within each travel-time band.
 *
 * - {@link travelTimeMinutes} (cost.ts): Dijkstra over the 8-neighbour grid, geodesic step
 *   lengths on WGS84 (geodesic.ts) times the mean friction of the two cells; no-data cells are
 *   barriers; several sources: the nearest wins; stops past the largest band.
 * - {@link assignBands}, {@link bandLabels} (bands.ts): cells by their own time, labelled as
 *   R `cut(right = TRUE, include.lowest = TRUE, dig.lab = 3)`: `[0,60]`, `(60,120]`, ...
 * - query.ts: the `catchment` query of the engine (friction layer, bands, per-band summaries).
 *
 * Pure: no DOM, no Node built-ins; runs in workers, the service worker and Node.
 */
export { DEFAULT_BREAKS_MIN, MAX_BREAKS, assignBands, bandLabels, bandOf, checkBreaks } from './bands';
export { MAX_SOURCES, gridSteps, snapSources, travelTimeMinutes, type FrictionSurface, type TravelTime, type TravelTimeOptions } from './cost';
export { fmtPoint, locateSources, nearestPassable, type LocatedSource } from './sources';
export { geodesicDistanceM, rowSteps, type RowSteps } from './geodesic';
export { CellHeap } from './heap';
