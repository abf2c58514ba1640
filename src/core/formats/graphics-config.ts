/**
 * The graphics of a runtime (src/core/runtime): the SVG-to-PNG renderer of plot and hist and the
 * outlines drawn on plots and written into GeoPackages, as values or loaders read on first need.
 * They travel with the writers' input (`GenFileInput.graphics`): no module global.
 */
import type { Basemap, Rasterizer } from './graphics';

export type { Basemap, Rasterizer };

/** Graphics of a runtime: what the writers draw with when a call passes none of its own. */
export interface GraphicsDefaults {
  /** SVG-to-PNG renderer. */
  rasterize?: Rasterizer;
  /** Country outlines, or a loader of them. */
  basemap?: Basemap | (() => Promise<Basemap | undefined>);
  /** Admin-1 outlines (e.g. `basemap/admin1.geojson`), or a loader of them: drawn on plots by an admin-1 `by`; loaded only then. */
  admin1?: Basemap | (() => Promise<Basemap | undefined>);
  /** Admin-2 outlines (`basemap/admin2.geojson` of an ingested bundle), or a loader of them: drawn on plots by an admin-2 `by`; loaded only then. */
  admin2?: Basemap | (() => Promise<Basemap | undefined>);
}

