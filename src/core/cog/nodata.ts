/**
 * The bundle's one no-data rule, of the core COG reader (src/core/cog), which the engine and
 * the map's raster worker (workers/raster/layers.ts) read through: a sample is no data when it is
 * NaN or equals the file's GDAL_NODATA tag (TIFF tag 42113), compared at the sample's own
 * precision (a Float32 sample against the tag rounded to Float32). No other value is special:
 * a file without the tag has no no-data value (the bundle's writers always set it: -9999 for
 * continuous layers, the type's maximum for class layers).
 */

/**
 * A test for no data of a file's samples.
 * @param noData the GDAL_NODATA value (null: none)
 * @param float32 the samples are Float32 (the tag is compared as Math.fround of it)
 */
export function noDataTest(noData: number | null, float32: boolean): (v: number) => boolean {
  if (noData === null || Number.isNaN(noData)) return (v) => v !== v;
  const nd = float32 ? Math.fround(noData) : noData;
  return (v) => v !== v || v === nd;
}
