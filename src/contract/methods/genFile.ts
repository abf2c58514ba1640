/** The `genFile` method: the main query written as a data package in the requested format. */
import type { IndapiArgs } from '../../core/api';
import { LAYER_PACKAGE } from '../../core/package/kinds';
import { withFiles } from '../package-files';
import { A_TOTALS, A_BY, A_DIGLAB, A_DIR, A_EXACT, A_FORMAT, A_IDS, A_ISO3, A_PAL, A_VAR, A_WKT, A_YEAR, A_CHANGE, compact, layerArgsOf } from './common';
import { defineMethod } from './types';

/** `genFile(var, iso3 = "SSA", by = NULL, format = "csv", wkt = NULL, exact = FALSE, ids = NULL, pal = NULL, dir = NULL, dig.lab = 3, totals = FALSE)`. */
export const genFile = defineMethod({
  name: 'genFile',
  title: 'Write query results to files',
  description: 'Runs the main query and writes the result as a data package in the requested format: the data file plus datapackage.json, DESCRIPTION, README.md, meta.csv and terms.html (rasters: the raster files with their .tfw/.prj and .aux.xml side-cars, meta.csv, README.md, datapackage.json and DESCRIPTION).',
  args: [A_VAR, A_ISO3, A_BY, { ...A_FORMAT, default: '"csv"', doc: 'File format: csv, dta, rds (readRDS), rda (RData for load(), alias rdata), json (GeoJSON), tif, asc, grd, gpkg (GeoPackage), or plot / hist for graphics. Case and surrounding spaces are ignored.' }, A_WKT, A_EXACT, A_IDS, A_PAL, A_DIR, A_DIGLAB, A_YEAR, A_CHANGE, A_TOTALS],
  details: [
    'Tabular formats (csv, dta, rds, rda) hold the summary table; GeoJSON holds, with `by`, one polygon per group (the union of its cells) carrying the group summary, else one point per cell carrying its values; raster formats (tif, asc, grd) hold one value per cell (with `by`, the group summary: a zonal map).',
    'Fetch the files under the session path `files/<name>` or all in one archive at `zip`, named `<var>-<by>-<ISO3>.<format>.zip`.',
  ],
  value: 'The names of the generated files (character vector).',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/genFile -d "var='ELEVATION'&iso3='KEN'&by='ADM1_NAME_ALT'&format='csv'"`,
  ],
  typed: (b): IndapiArgs => compact({ ...layerArgsOf(b, true), format: b.format, pal: b.pal, dir: b.dir }),
  package: LAYER_PACKAGE,
  async run(ctx, a) {
    return withFiles(ctx, LAYER_PACKAGE, a, a.format ?? 'csv');
  },
});
