/**
 * The `catchment` method of the contract, an addition to the original service's methods
 * (issue 19): areas within N minutes of travel from source points over a friction layer,
 * each band summarised like any area. See {@link runCatchment} for the computation.
 */
import { IndapiError } from '../core/errors';
import { DEFAULT_BREAKS_MIN } from '../core/catchment/bands';
import { catchmentArgs, type CatchmentResult } from '../core/catchment/query';
import type { ArgSpec } from './args';
import type { MethodContext, MethodSpec } from './methods';
import { wantsFiles, withFiles } from './package-files';

/** Runs the engine's catchment with bound arguments. @throws IndapiError BAD_ARGUMENT when the engine lacks it */
async function compute(ctx: MethodContext, a: Record<string, unknown>): Promise<CatchmentResult> {
  if (!ctx.engine.catchment) throw new IndapiError('BAD_ARGUMENT', 'Catchments are not available on this server.');
  return ctx.engine.catchment(catchmentArgs(a), { signal: ctx.signal });
}

const ARGS: ArgSpec[] = [
  { name: 'xy', type: 'json', default: 'NULL', doc: 'Source points, degrees (EPSG:4326, longitude first): `c(lon, lat)` or a list of pairs, e.g. `list(c(36.82, -1.29), c(39.67, -4.05))` (JSON `[36.82, -1.29]` or `[[36.82, -1.29], [39.67, -4.05]]`); at most 1,000. Each point is snapped to the cell containing it; with several points the nearest wins. Give `xy` or `wkt`.' },
  { name: 'wkt', type: 'string', default: 'NULL', doc: 'Source points as WKT POINT or MULTIPOINT (EPSG:4326), instead of `xy`.' },
  { name: 'minutes', type: 'numbers', default: `c(${DEFAULT_BREAKS_MIN.join(', ')})`, doc: 'Band breaks in minutes of travel, strictly increasing numbers >= 0. Cells are assigned to bands by their own travel time, labelled as R `cut(t, minutes, right = TRUE, include.lowest = TRUE, dig.lab = 3)`: `[0,60]` (the first band is closed so the source cells, at 0 minutes, are in it), `(60,120]`, ... The computation stops past the last break.' },
  { name: 'friction', type: 'string', default: 'NULL', doc: 'Friction layer code: a continuous layer with unit "minutes per metre" (default: the first of the catalog; the embedded bundle has FRICTION_WALK, walking only).' },
  { name: 'var', type: 'codes', default: 'NULL', doc: 'Indicator codes summarised per band with their catalog formulas (e.g. PN14_POP: the people within each band).' },
  { name: 'iso3', type: 'strings', default: '"SSA"', doc: 'Countries or regions whose cells are counted and summarised (travel itself crosses borders: the friction layer has none).' },
  { name: 'format', type: 'string', default: 'NULL', doc: 'NULL: the band table. "csv", "dta", "rds", "rda": the band table as a data package (as `indapi` writes them); "tif", "asc", "grd": the travel-time raster (minutes, Float32, -9999 no-data beyond the last break); "json": GeoJSON, one (Multi)Polygon per band carrying its row.' },
];

/** The `catchment` method. */
export const CATCHMENT_METHOD: MethodSpec = {
  name: 'catchment',
  title: 'Travel-time catchments (marketsheds) summarised by band',
  description: 'An addition to the methods of the original service: the areas within N minutes of travel from one or more source points over a friction surface (minutes per metre), one row per travel-time band with its cells, area and indicator summaries.',
  args: ARGS,
  details: [
    'Travel time is the least accumulated cost over the 8-neighbour grid from the nearest source: each step between two neighbouring cells costs the geodesic distance between their centres on the WGS84 ellipsoid (metres; east-west steps shrink with latitude) times the mean friction of the two cells (as R gdistance with its geographic correction and Earth Engine cumulativeCost define it). No-data cells of the friction layer (sea, large lakes) are barriers. Checked against SciPy\'s csgraph.dijkstra with pyproj geodesic edge lengths (tests/catchment).',
    'Each band\'s `area_km2` is the sum of its cells\' WGS84 areas; each `var` is summarised over the band\'s cells (CELL5M ids) with its catalog formula, as `getLayer(ids = ...)` gives it. A band with no cell has `cells` 0 and no summaries.',
    'The embedded FRICTION_WALK layer is walking only (Tobler\'s hiking function on the ETOPO5 slope): no roads, land cover, rivers or borders; ingest a real friction surface for motorised travel times (README).',
    'Errors (400, naming the argument): a point outside the grid or on a barrier cell (`xy` / `wkt`), more than 1,000 points, an unknown layer or one that is not a friction layer (`friction`), breaks that are not increasing (`minutes`).',
  ],
  value: 'A table with one row per band: band, minutes_from, minutes_to, cells, area_km2, then one column per `var`; with a file `format` the names of the files.',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/catchment/json -H 'Content-Type: application/json' -d '{"xy": [36.82, -1.29], "minutes": [0, 60, 120, 240, 480], "var": "PN14_POP"}'`,
    `curl {base}/ocpu/library/indapi3/R/catchment/json -d "wkt='MULTIPOINT((36.82 -1.29), (39.67 -4.05))'&minutes=c(0,120,480)"`,
    `httr::POST("{base}/ocpu/library/indapi3/R/catchment", body = list(xy = c(36.82, -1.29), var = "PN14_POP", format = "tif"), encode = "json")`,
  ],
  async run(ctx, a) {
    // with a file format: the band table, the travel-time raster or GeoJSON bands (src/core/catchment/formats.ts)
    if (wantsFiles(a.format)) return withFiles(ctx, 'catchment', a, a.format);
    const r = await compute(ctx, a);
    return { value: r.table.rows };
  },
};
