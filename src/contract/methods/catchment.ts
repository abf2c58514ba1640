/**
 * The `catchment` method, an addition to the original service's methods (issue 19): areas
 * within N minutes of travel from source points over a friction layer, each band summarised
 * like any area. See `src/core/catchment` for the computation.
 */
import type { CatchmentCallArgs } from '../../core/api';
import { DEFAULT_BREAKS_MIN } from '../../core/catchment/bands';
import { catchmentArgs } from '../../core/catchment/query';
import { IndapiError } from '../../core/errors';
import { CATCHMENT_PACKAGE } from '../../core/package/kinds';
import type { ArgSpec } from '../args';
import { wantsFiles, withFiles } from '../package-files';
import { compact } from './common';
import { defineMethod } from './types';

const ARGS = [
  { name: 'xy', type: 'json', default: 'NULL', doc: 'Source points, degrees (EPSG:4326, longitude first): `c(lon, lat)` or a list of pairs, e.g. `list(c(36.82, -1.29), c(39.67, -4.05))` (JSON `[36.82, -1.29]` or `[[36.82, -1.29], [39.67, -4.05]]`); at most 1,000. Each point is snapped to the cell containing it; with several points the nearest wins. Give `xy` or `wkt`.' },
  { name: 'wkt', type: 'string', default: 'NULL', doc: 'Source points as WKT POINT or MULTIPOINT (EPSG:4326), instead of `xy`.' },
  { name: 'minutes', type: 'numbers', default: `c(${DEFAULT_BREAKS_MIN.join(', ')})`, doc: 'Band breaks in minutes of travel, strictly increasing numbers >= 0. Cells are assigned to bands by their own travel time, labelled as R `cut(t, minutes, right = TRUE, include.lowest = TRUE, dig.lab = 3)`: `[0,60]` (the first band is closed so the source cells, at 0 minutes, are in it), `(60,120]`, ... The computation stops past the last break.' },
  { name: 'friction', type: 'string', default: 'NULL', doc: 'Friction layer code: a continuous layer with unit "minutes per metre" (default: the first of the catalog; the embedded bundle has FRICTION_WALK, walking only).' },
  { name: 'var', type: 'codes', default: 'NULL', doc: 'Indicator codes summarised per band with their catalog formulas (e.g. POP_MODEL: the modelled people within each band; PN14_POP spreads each national total evenly and is not where people live).' },
  { name: 'iso3', type: 'strings', default: '"SSA"', doc: 'Countries or regions whose cells are counted and summarised (travel itself crosses borders: the friction layer has none).' },
  { name: 'names', type: 'strings', default: 'NULL', doc: 'One name per source, in the order of `xy` / `wkt`, each 1 to 200 characters and all different (default "source 1", "source 2", ...). Used in the `source` column, the nearest-source raster\'s table, the GeoJSON and messages.' },
  { name: 'marketshed', type: 'bool', default: 'FALSE', doc: 'TRUE: each cell belongs to its nearest source by travel time (its marketshed); one row per source x band with `source` (the name) and `source_id` (1-based) first, then the all-sources rows per band (no `source`).' },
  { name: 'cumulative', type: 'bool', default: 'FALSE', doc: 'TRUE: bands `[0,60]`, `[0,120]`, ... (every cell within the upper break: "within N minutes") instead of `[0,60]`, `(60,120]`, ...' },
  { name: 'neighbours', type: 'int', default: '8', doc: 'Moves of the travel graph: 8 (to the adjacent and diagonal cells) or 16 (also the knight\'s moves, as GRASS GIS `r.cost -k` and AccessMod: oblique paths are overstated by up to 3 % instead of 8 %; about 1.5 times slower).' },
  { name: 'snap_km', type: 'json', default: '10', doc: 'A source on a no-data cell of the friction layer (sea, a lake: all water; a cell with any land is passable) moves to the nearest passable cell whose nearest point lies within this distance, km (0 to 100; 0: no move); the session\'s warnings say where and how far. Beyond it the call is a 400 naming the row.' },
  { name: 'origin', type: 'string', default: '"cell"', doc: '"cell": the source cell is at 0 minutes and travel runs between cell centres (the default, as before); "point": travel is counted from the source point itself (the source cell\'s time is the time from the point to its centre; each neighbour is reached straight from the point).' },
  { name: 'capacity', type: 'json', default: 'NULL', doc: 'People each source can serve (one number per source, or one for all; >= 0): each source takes the cells of its marketshed in travel-time order until its capacity or the last break is reached (AccessMod\'s geographic coverage; implies `marketshed = TRUE`). Adds `capacity`, `population_covered`, `population_in_reach`, `minutes_covered` to each source\'s rows and `population_uncovered` to the all-sources rows.' },
  { name: 'population', type: 'string', default: 'NULL', doc: 'The layer of people per cell that `capacity` counts (default POP_MODEL when the bundle has it, else PN14_POP).' },
  { name: 'format', type: 'string', default: 'NULL', doc: 'NULL: the band table. "csv", "dta", "rds", "rda": the band table as a data package (as `indapi` writes them); "tif", "asc", "grd": the travel-time raster (minutes, Float32, -9999 no-data beyond the last break) and, with `marketshed`, the nearest-source raster (source_id, with its table of names), with `capacity` the coverage raster COVERED_BY (the covering source\'s source_id, sources + 1 within reach but not covered); "json": GeoJSON, one (Multi)Polygon per band (per source x band with `marketshed`) carrying its row.' },
] as const satisfies readonly ArgSpec[];

/** `catchment(xy = NULL, wkt = NULL, minutes = c(...), friction = NULL, var = NULL, iso3 = "SSA", ...)`. */
export const catchment = defineMethod({
  name: 'catchment',
  title: 'Travel-time catchments (marketsheds) summarised by band',
  description: 'An addition to the methods of the original service: the areas within N minutes of travel from one or more source points over a friction surface (minutes per metre), one row per travel-time band with its cells, area and indicator summaries.',
  args: ARGS,
  details: [
    'Travel time is the least accumulated cost over the 8-neighbour grid from the nearest source: each step between two neighbouring cells costs the geodesic distance between their centres on the WGS84 ellipsoid (metres; east-west steps shrink with latitude) times the mean friction of the two cells (as R gdistance with its geographic correction and Earth Engine cumulativeCost define it). No-data cells of the friction layer (sea, large lakes) are barriers. Checked against SciPy\'s csgraph.dijkstra with pyproj geodesic edge lengths (tests/catchment).',
    'Each band\'s `area_km2` is the sum of its cells\' WGS84 areas; each `var` is summarised over the band\'s cells (CELL5M ids) with its catalog formula, as `getLayer(ids = ...)` gives it. A band with no cell has `cells` 0, 0 for indicators summed by `sum()` (people) and no other summaries. Disjoint bands also carry `<column>_within` columns (cells, area and summed indicators added up over the bands of each source: the figures within each band\'s upper limit).',
    'The embedded FRICTION_WALK layer is walking only (Tobler\'s hiking function on the ETOPO5 slope): no roads, land cover, rivers or borders; ingest a real friction surface for motorised travel times (README).',
    'Every answer states in the session\'s warnings the cell size near the sources and what it implies (e.g. "Cells are 9.3 x 9.2 km (85 km2) near the sources; crossing one takes about 112 minutes at the sources\' friction, so bands narrower than that hold few cells ...") and each source moved off a no-data cell ("Off Mombasa moved 7.9 km to the nearest land cell, centred at (39.7083, -4.0417) ..." for a point at 39.75, -4.1 in the sea).',
    'With 16 neighbours a knight\'s move (two cells one way, one the other) costs its geodesic length times the mean friction of the four cells it touches (start, end and the two its line crosses), all four passable, as GRASS GIS `r.cost -k` defines it; checked against r.cost on a 300 x 300 window (tests/catchment/grass.interop.test.ts).',
    'All bands (and sources) are summarised in one pass over the cells; cumulative bands overlap and take one pass each over the cells within them.',
    'Errors (400, naming the argument and the row): a point outside the grid, or on a no-data cell with no passable cell within `snap_km` (`xy` / `wkt`), the same point twice, more than 1,000 points, a name missing, repeated or longer than 200 characters (`names`), a capacity negative or not a number (`capacity`), `neighbours` other than 8 or 16, an unknown layer or one that is not a friction layer (`friction`), breaks that are not increasing or more than 100 of them (`minutes`). Nothing is computed before every argument is checked.',
  ],
  value: 'A table with one row per band: band, minutes_from, minutes_to, cells, area_km2, then one column per `var`; with `marketshed = TRUE` (or `capacity`) source and source_id first, one row per source x band, then the all-sources rows; with `capacity` the coverage columns. With a file `format` the names of the files.',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/catchment/json -H 'Content-Type: application/json' -d '{"xy": [36.82, -1.29], "minutes": [0, 60, 120, 240, 480], "var": "POP_MODEL"}'`,
    `curl {base}/ocpu/library/indapi3/R/catchment/json -d "wkt='MULTIPOINT((36.82 -1.29), (39.67 -4.05))'&minutes=c(0,120,480)"`,
    `httr::POST("{base}/ocpu/library/indapi3/R/catchment", body = list(xy = c(36.82, -1.29), var = "POP_MODEL", format = "tif"), encode = "json")`,
    `curl {base}/ocpu/library/indapi3/R/catchment/json -H 'Content-Type: application/json' -d '{"xy": [[36.82, -1.29], [34.76, -0.10], [39.67, -4.05]], "names": ["Nairobi", "Kisumu", "Mombasa"], "minutes": [0, 120, 240, 480], "marketshed": true, "cumulative": true, "neighbours": 16, "var": "POP_MODEL"}'`,
    `curl {base}/ocpu/library/indapi3/R/catchment/json -d "xy=list(c(36.82,-1.29),c(39.67,-4.05))&names=c('Nairobi','Mombasa')&capacity=c(2e6,1e6)&minutes=c(0,120,240)"`,
  ],
  // `xy` and `capacity` read here (400 naming them), before any work
  typed: (b): CatchmentCallArgs => compact({ ...catchmentArgs(b), format: b.format }),
  package: CATCHMENT_PACKAGE,
  async run(ctx, a) {
    // with a file format: the band table, the travel-time raster or GeoJSON bands (src/core/catchment/formats.ts)
    if (wantsFiles(a.format)) return withFiles(ctx, CATCHMENT_PACKAGE, a, a.format);
    if (!ctx.engine.catchment) throw new IndapiError('BAD_ARGUMENT', 'Catchments are not available on this server.');
    const { format: _f, ...q } = a;
    const r = await ctx.engine.catchment(q, { signal: ctx.signal, onProgress: ctx.onProgress });
    // the notes (cell size, moved sources) go to the session's warnings
    return { value: r.table.rows, warnings: r.notes };
  },
});
