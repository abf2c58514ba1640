/**
 * The bundle format's one owner: its layout and manifest (./layout.ts), its CSV files read
 * (vi.csv, iso.csv, class tables: ./tables.ts) and the reader every surface reads a bundle
 * through, `openBundle` (./open.ts). The CSV writers (./tables-write.ts, papaparse) are imported
 * from their own module, not from here, so that the page's reader does not load papaparse. Engine, server, app, service worker and the
 * workers read the bundle through these; the layout is described in the README ("The data bundle").
 */
export * from './layout';
export * from './tables';
export * from './open';
export * from './series';
export * from './series-form';
