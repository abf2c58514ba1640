/**
 * File writers and data packages (`genFile`): every file `format` of the spec's E3, with
 * the original's aliases, as pure functions over the engine's {@link TableResult} /
 * {@link CellResult}. Runs in a browser worker and in Node (no Node built-ins).
 *
 * Formats and their files (`<base>` = `<method>-<vars>-<by>-<area>`, see ./names.ts):
 * - csv, dta, rds, rda: `<base>.csv|.dta|.rds|.rda` + `meta.csv`, `README.md`,
 *   `datapackage.json`, `DESCRIPTION`, `terms.html` (tabular, from the summary table); the
 *   `.rda` (RData, R's `save()` format, opened with `load()`) holds one data.frame named
 *   after the file stem as R's `make.names` would (`getLayer-ELEVATION-KEN` ->
 *   `getLayer.ELEVATION.KEN`, see {@link rObjectName}); the `.rds` is read with `readRDS()`;
 * - json: `<base>.geojson` + the same side files: with `by` (unless `collapse = FALSE`) one
 *   polygon feature per group (the union of its cells) carrying the group's summary; else one
 *   cell-centre point per cell carrying the cell's own values (see ./geojson.ts);
 * - tif: per var `<method>-<VAR>-<by>-<area>.tif` + `.tfw` + `.tif.aux.xml`, then
 *   `meta.csv`, `README.md`, `datapackage.json` (resources: the rasters and meta.csv), `DESCRIPTION`;
 * - asc: per var `.asc` + `.prj` + `.asc.aux.xml`, then the same side files;
 * - grd: `<base>.grd` + `<base>.gri` (all vars as bands), then the same side files;
 * - with `by`, raster cells hold their group's summary (a zonal map), as README.md and the
 *   `.aux.xml` metadata item `VALUES` say;
 * - plot, hist: per var `.svg` + `.png`, also returned as session graphics.
 *
 * Class coding: tif and asc hold 0-based class indices (as the original service wrote
 * them), grd, dta and rds the catalog class values. The `.aux.xml` of tif/asc carries the
 * category names and a raster attribute table `value` (index) / `class_value` / `label`,
 * and the README.md of raster packages a table index -> class value -> label per class
 * layer. A multi-band grd cannot carry class labels (one attribute table per file, see
 * ./grd.ts): only its README table maps them.
 * The ZIP is named with the format as requested (`….rdata.zip`), see ./names.ts.
 *
 * Which formats exist, their aliases, inputs and writers: the registry (./registry.ts); the
 * writers are under ./writers/.
 */
import type { CallOptions, GeneratedFile } from '../api';
import { IndapiError, throwIfAborted } from '../errors';
import { queryValue } from '../args';
import { zipFileName } from './names';
import { countSelected } from './raster';
import { MAX_PACKAGE_BYTES, resolveFormat, type FormatSpec, type GenFileInput, type GenFileResult } from './registry';

export { writeCsv, csvText } from './csv';
export { writeDta, dtaTimeStamp } from './dta';
export { writeRds, writeRda, serializeR, serializeRData, rObjectName } from './rds';
export { writeGeoJson, writeGeoJsonZonal, traceGroups, zonalDescription, CELL_POINTS_DESCRIPTION } from './geojson';
export { writeGeoTiff, worldFile } from './tiff';
export { writeGrd } from './grd';
export { ascText, ESRI_PRJ_WGS84 } from './asc';
export { pamXml } from './pam';
export { dataFileBase, requestCodes, zipFileName } from './names';
export { createResvgRasterizer } from './graphics';
export type { GraphicsDefaults, Rasterizer, Basemap } from './graphics-config';
export { PALETTES, paletteColors } from './palettes';
export { quantile7, fiveNum } from './stats';
export { MEDIA_TYPES } from './writers/common';
export { zonalJson } from './writers/tabular';
export {
  FORMATS, MAX_PACKAGE_BYTES, cellQueryArgs, estimateBytes, findFormat, formatKey, needsCells, normalizeFormat, resolveFormat,
  type FileFormat, type FormatInput, type FormatSpec, type FormatWriter, type GenFileInput, type GenFileResult,
} from './registry';

/**
 * Checks a writer's input against its spec: the input it names is there, a per-cell result
 * selects cells, the estimated size is under the limit.
 * @throws IndapiError INTERNAL (input missing), EMPTY_SELECTION, TOO_LARGE (the message states the size)
 */
function checkInput(spec: FormatSpec, input: GenFileInput): void {
  const format = spec.name;
  if (spec.input === 'table' && !input.table) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs the summary table.`);
  if (spec.input === 'source' && input.source === undefined) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs the method's result.`);
  if (spec.input.includes('cells')) {
    if (!input.cells) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs the per-cell result.`);
    if (countSelected(input.cells) === 0 || input.cells.grid.width * input.cells.grid.height === 0) {
      throw new IndapiError('EMPTY_SELECTION', `The request selects no cells, so there is nothing to write as ${format}: check the iso3 codes, the by filter or the WKT shape.`, { format });
    }
  }
  const limit = input.maxBytes ?? MAX_PACKAGE_BYTES;
  const need = spec.estimateBytes(input.table, input.cells);
  if (need > limit) {
    const mb = (x: number) => `${Math.ceil(x / (1024 * 1024))} MB`;
    throw new IndapiError('TOO_LARGE', `The ${format} files of this request would need about ${mb(need)} of memory, more than the limit of ${mb(limit)}: request fewer variables or a smaller area.`, { needBytes: need, limitBytes: limit });
  }
}

/**
 * Generates the files (and graphics) of a session for a file `format`: resolves the format in
 * the registry (`input.formats`, default all of FORMATS), checks the input and runs
 * the format's writer.
 * @param input format, request, results and catalog records
 * @param opts abort signal; progress in files written
 * @returns files in listing order, graphics, and the ZIP name
 * @throws IndapiError BAD_FORMAT unknown format; EMPTY_SELECTION a per-cell format whose
 *   result selects no cell; TOO_LARGE when the size estimate exceeds the limit (the
 *   message states the size); BAD_ARGUMENT unknown `pal`; INTERNAL when the result the
 *   format needs is missing or plot/hist lack a rasterizer; ABORTED
 */
export async function genFile(input: GenFileInput, opts: CallOptions = {}): Promise<GenFileResult> {
  const spec = resolveFormat(input.format, input.formats);
  // request in, query value out: the writers get the query and the selection used, never the raw arguments
  const { args, ...rest } = input;
  const query = input.nameArea?.length ? { ...queryValue(args), area: input.nameArea } : queryValue(args);
  const zipName = zipFileName(query, String(input.format));
  throwIfAborted(opts.signal);
  if (spec.input === 'none') return { files: [], graphics: [], zipName };
  checkInput(spec, input);
  const selection = input.table?.selection ?? input.cells?.selection;
  const out = await spec.write({ ...rest, query, shownRequest: args, ...(selection ? { selection } : {}) }, opts);
  return { files: out.files, graphics: out.graphics ?? [], zipName: out.zipName ?? zipName };
}

/** Files stored without recompression in the ZIP (already compressed). */
const STORED = /\.(png|tif|rds|rda|zip|gz)$/i;

/**
 * Builds a ZIP archive of files with jszip (DEFLATE, level 6; already-compressed files
 * stored), reporting progress in percent (0..100). jszip is imported on first use: 96 KB of
 * the engine worker's script that a summary never needs (a chunk shared with the files worker).
 * @param files the session's files, in order
 * @param opts signal aborts generation (the stream is paused); progress in percent
 * @param date modification time of the entries (default now)
 * @returns the archive bytes (media type application/zip)
 * @throws IndapiError ABORTED
 */
export async function zipFiles(files: GeneratedFile[], opts: CallOptions = {}, date: Date = new Date()): Promise<Uint8Array> {
  const { signal, onProgress } = opts;
  throwIfAborted(signal);
  const { default: JSZip } = await import('jszip');
  throwIfAborted(signal);
  const zip = new JSZip();
  for (const f of files) zip.file(f.name, f.bytes, { binary: true, date, compression: STORED.test(f.name) ? 'STORE' : 'DEFLATE' });
  const helper = zip.generateInternalStream({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 }, streamFiles: false });
  return new Promise<Uint8Array>((resolve, reject) => {
    const onAbort = () => {
      helper.pause();
      reject(new IndapiError('ABORTED', 'The request was aborted.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    helper
      .accumulate((m) => onProgress?.(m.percent, 100))
      .then((b) => {
        onProgress?.(100, 100);
        resolve(b);
      }, reject)
      .finally(() => signal?.removeEventListener('abort', onAbort));
  });
}
