/**
 * Realm defaults of the graphics writers (plot, hist): the SVG-to-PNG renderer and the
 * outlines drawn on maps, set once per realm (Node server, files worker, service worker).
 */
import type { Basemap, Rasterizer } from './graphics';

export type { Basemap, Rasterizer };

/** Graphics defaults of a realm (see {@link configureGraphics}). */
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

let defaults: GraphicsDefaults = {};

/**
 * Sets the rasterizer and basemaps that plot and hist use when a `genFile` call does
 * not pass its own (configure once per realm: in the Node server and in the worker).
 * @param g `rasterize` (see `createResvgRasterizer`); `basemap` (countries) and
 *   `admin1` and `admin2` (admin-1 and admin-2 units), each as a value or a loader
 */
export function configureGraphics(g: GraphicsDefaults): void {
  defaults = { ...defaults, ...g };
}

/** The defaults set by {@link configureGraphics}. */
export function graphicsDefaults(): GraphicsDefaults {
  return defaults;
}
