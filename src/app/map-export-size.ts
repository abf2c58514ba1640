/**
 * The map export's formats and sizes, apart from the composer (map-export-svg.ts) so that the
 * export control in the first screen does not load the composer's code before it is used.
 */

/** The formats the map export writes. */
export type MapExportFormat = 'png' | 'svg' | 'pdf';

/**
 * Size of an exported image: the map as on screen; an A4 page (297 x 210 mm, oriented as the
 * view) at 150 or 300 dpi; or a width in pixels (the view's aspect).
 */
export type ExportSize = { kind: 'screen' } | { kind: 'a4'; dpi: 150 | 300 } | { kind: 'width'; px: number };

/** Largest side of an exported image in px (MapLibre's default maxCanvasSize, 4096). */
export const MAX_EXPORT_PX = 4096;
