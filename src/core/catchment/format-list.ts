/** The file formats of a catchment (`catchmentFiles` in files.ts), light enough for the app's main bundle. */

/** Formats of `catchmentFiles`: the band table, the travel-time raster, GeoJSON bands. */
export const CATCHMENT_FORMATS: ReadonlyArray<[string, string]> = [
  ['csv', 'CSV table of the bands'], ['dta', 'Stata 14+ (.dta) table of the bands'], ['rds', 'R data frame (.rds) of the bands'], ['rda', 'R workspace (.rda) of the bands'],
  ['tif', 'GeoTIFF travel-time raster (minutes)'], ['asc', 'ESRI ASCII travel-time grid'], ['grd', 'R raster travel time (.grd/.gri)'], ['json', 'GeoJSON: one polygon per band'],
];

