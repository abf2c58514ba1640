/**
 * The download formats of a catchment (`catchment(format = ...)`, the Download panel on a
 * catchment), as format-registry entries (src/core/formats/registry.ts): csv, dta, rds, rda
 * write the band table (input `table`), tif, asc, grd the travel-time raster (input
 * `cells`: minutes, Float32, -9999 no-data beyond the last break; with marketsheds also the
 * nearest-source raster, class values = source_id labelled with the names), json one GeoJSON
 * polygon per band or per source x band (input `source`: the CatchmentResult). Light: writers load on first use.
 * `buildPackage` (src/core/package) hands each entry the input it names.
 */
import { FORMATS, findFormat, resolveFormat, type FormatSpec } from '../formats/registry';
import type { CatchmentResult } from './query';

/** A layer format's entry with the catchment's label. */
function as(name: string, label: string): FormatSpec {
  return { ...(findFormat(name, FORMATS) as FormatSpec), label };
}

/** The catchment formats, in the Download panel's order. */
export const CATCHMENT_FORMATS: readonly FormatSpec[] = [
  as('csv', 'CSV table of the bands'),
  as('dta', 'Stata 14+ (.dta) table of the bands'),
  as('rds', 'R data frame (.rds) of the bands'),
  as('rda', 'R workspace (.rda) of the bands'),
  as('tif', 'GeoTIFF travel-time raster (minutes; marketsheds: and the nearest-source raster; capacities: and the coverage raster)'),
  as('asc', 'ESRI ASCII travel-time grid'),
  as('grd', 'R raster travel time (.grd/.gri)'),
  {
    name: 'json', aliases: ['geojson'], input: 'source', mediaType: 'application/geo+json', label: 'GeoJSON: one polygon per band (marketsheds: per source x band)',
    estimateBytes: () => 4096,
    async write(input) {
      const [{ catchmentGeoJson }, { packageContext, sideFiles }] = await Promise.all([import('./files'), import('../formats/writers/common')]);
      const r = input.source as CatchmentResult;
      const fr = r.friction.varCode;
      const bytes = new TextEncoder().encode(catchmentGeoJson(r));
      const data = { name: `catchment-${fr}-bands.geojson`, mediaType: 'application/geo+json', bytes };
      // as every package: meta.csv, README.md (sources, licences, the call), datapackage.json, DESCRIPTION and terms.html
      const p = packageContext(input, 'json');
      p.info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format: 'geojson', columns: r.table.columns, description: 'GeoJSON (RFC 7946): one MultiPolygon per band (marketsheds: per source x band), properties = the band table\'s row' });
      return { files: [data, ...sideFiles(p, [data], true)], zipName: `catchment-${fr}.json.zip` };
    },
  },
];

/**
 * The catchment format of a `format` value (trimmed, any case, aliases).
 * @throws IndapiError BAD_FORMAT naming `format` and listing the catchment's formats
 */
export function resolveCatchmentFormat(format: unknown): FormatSpec {
  return resolveFormat(format, CATCHMENT_FORMATS, (f) => `'format': catchment writes csv, dta, rds, rda (the band table), tif, asc, grd (the travel-time raster, and the nearest-source raster with marketshed = TRUE) or json (GeoJSON bands), not '${f}'.`);
}
