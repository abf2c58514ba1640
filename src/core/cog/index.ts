/** COG reading: TIFF header/block decoding and the cached window store. */
export * from './tiff';
export * from './store';
export * from './inflate';
export * from './decode';
