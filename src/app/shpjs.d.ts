/** Types of shpjs 6 (no bundled types): a zipped shapefile (or its parts) to GeoJSON in EPSG:4326. */
declare module 'shpjs' {
  /** Reads a ZIP holding shapefiles (or a URL, or `{ shp, dbf, prj, cpg }`); one FeatureCollection per layer. */
  export default function shp(input: ArrayBuffer | string | Record<string, ArrayBuffer>): Promise<import('geojson').FeatureCollection | Array<import('geojson').FeatureCollection & { fileName?: string }>>;
}
