/** Entry of the pure core: no DOM, React or Node built-ins. */
export * from './grid';
export * from './errors';
export * from './types';
export * from './io/source';
export * from "./api";
export { genFile, zipFiles, normalizeFormat, needsCells, estimateBytes, configureGraphics, createResvgRasterizer, MAX_PACKAGE_BYTES } from './formats';
export type { GenFileInput, GenFileResult, FileFormat, Rasterizer, Basemap } from './formats';
