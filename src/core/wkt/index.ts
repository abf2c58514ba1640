/** WKT parsing and geometry-to-cell selection. */
export * from './parse';
export * from './raster';
