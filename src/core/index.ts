/** Entry of the pure core: no DOM, React or Node built-ins. */
export * from './grid';
export * from './errors';
export * from './types';
export * from './io/source';
export * from "./api";
export { genFile, zipFiles, normalizeFormat, needsCells, estimateBytes, createResvgRasterizer, MAX_PACKAGE_BYTES } from './formats';
export type { GenFileInput, GenFileResult, FileFormat, Rasterizer, Basemap } from './formats';
export { createRuntime } from './runtime';
export type { Runtime, RuntimeOptions, RuntimeWriter } from './runtime';
export { createEngine, parseDomains, MAX_IDS, STAT_NAMES, parseAggFun, aggFormulaText, cutLabels, formatG, labelDigits, roundR } from './engine';
export type { EngineOptions, IndapiEngine } from './engine';
export { Catalog, describeRecord, unknownCodeMessage } from './catalog';
export { openBundle, parseVi, parseClassTable, parseIso, parseManifest, VI_FIELDS } from './bundle';
export type { Bundle, BundleLoaders, BundleManifest, IsoRow } from './bundle';
export { CogStore } from './cog/store';
export type { PixelWindow, CogStoreOptions } from './cog/store';
export { FetchSource, fetchSourceFactory, fetchTextLoader } from './io/fetch-source';
export { parseWkt, MAX_WKT_VERTICES, geometryCells, MAX_WKT_CELLS } from './wkt';
