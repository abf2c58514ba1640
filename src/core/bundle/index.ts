/**
 * The bundle format's one owner (issue 27): its layout and manifest (./layout.ts), its CSV files
 * read and written (vi.csv, iso.csv, class tables: ./tables.ts) and the reader every surface
 * reads a bundle through, `openBundle` (./open.ts). Engine, server, app, service worker and the
 * workers read the bundle through these; the layout is described in the README ("The data bundle").
 */
export * from './layout';
export * from './tables';
export * from './open';
export * from './series';
export * from './series-form';
