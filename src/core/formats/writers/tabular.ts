/**
 * Writers of one data file plus the package's side files: the summary table as csv, dta,
 * rds or rda, and the per-cell result as GeoJSON (json). See ../index.ts for the files.
 */
import type { CellResult, GeneratedFile, QueryValue, TableResult } from '../../api';
import { IndapiError, throwIfAborted } from '../../errors';
import { writeCsv } from '../csv';
import { dtaTimeStamp, writeDta } from '../dta';
import { CELL_POINTS_DESCRIPTION, writeGeoJson, writeGeoJsonZonal, zonalDescription } from '../geojson';
import { rObjectName, writeRda, writeRds } from '../rds';
import type { FormatWriter, WriterInput } from '../types';
import { dataLabel, fileOf, packageContext, sideFiles, type PackageContext } from './common';

/**
 * True when a json (GeoJSON) package is written as zonal polygons: the request has `by` and
 * does not ask for `collapse = FALSE`.
 * @param query the request as a query value (its `by` codes and `collapse`)
 */
export function zonalJson(query: Pick<QueryValue, 'by'> & { collapse?: boolean }): boolean {
  return query.by.length > 0 && query.collapse !== false;
}

/** The GeoJSON data file: zonal polygons (by, collapsed) or cell points. */
function geojsonFile(input: WriterInput, p: PackageContext, signal?: AbortSignal): GeneratedFile {
  const cells = input.cells as CellResult;
  if (zonalJson(input.query) && (cells.keys?.length ?? 0) > 1) {
    // the engine says whether it pooled the countries (one block for all selected cells);
    // from an engine that predates `selection`, summaries per country
    const pooled = cells.selection?.pooled ?? false;
    const data = fileOf(`${p.base}.geojson`, writeGeoJsonZonal(cells, { pooled, signal }));
    p.info.geojson = 'zonal';
    p.info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format: 'geojson', description: `GeoJSON (RFC 7946) FeatureCollection. ${zonalDescription(pooled)} Properties: ${pooled ? 'ISO3 (the countries of the cells), ' : 'ISO3, ADM0_NAME, '}the by codes (labels), CELLS, then the summary values.` });
    return data;
  }
  const data = fileOf(`${p.base}.geojson`, writeGeoJson(cells, signal));
  p.info.geojson = 'cells';
  p.info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format: 'geojson', description: `GeoJSON (RFC 7946) FeatureCollection. ${CELL_POINTS_DESCRIPTION} Properties: CELL5M, X, Y, the keys (ISO3, ADM0_NAME), then the values.` });
  return data;
}

/** The table's data file in a tabular format. */
function tableFile(format: string, input: WriterInput, p: PackageContext): GeneratedFile {
  const table = input.table as TableResult;
  const label = dataLabel(input.method, p.codes);
  let data: GeneratedFile;
  if (format === 'csv') data = fileOf(`${p.base}.csv`, writeCsv(table));
  else if (format === 'dta') data = fileOf(`${p.base}.dta`, writeDta(table, { dataLabel: label, timeStamp: p.now }));
  else if (format === 'rda') data = fileOf(`${p.base}.rda`, writeRda(table, { dataLabel: label, timeStamp: dtaTimeStamp(p.now) }, rObjectName(p.base)));
  else if (format === 'rds') data = fileOf(`${p.base}.rds`, writeRds(table, { dataLabel: label, timeStamp: dtaTimeStamp(p.now) }));
  else throw new IndapiError('INTERNAL', `tabular writer: no writer for '${format}'.`);
  p.info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format, columns: table.columns });
  return data;
}

/**
 * The writer of a tabular format (csv, dta, rds, rda) or of json: the data file, then
 * meta.csv, README.md, datapackage.json, DESCRIPTION and terms.html.
 * @param format the normalised format name
 */
export function write(format: string): FormatWriter {
  return async (input, { signal, onProgress }) => {
    const p = packageContext(input, format);
    const data = format === 'json' ? geojsonFile(input, p, signal) : tableFile(format, input, p);
    onProgress?.(1, 6);
    throwIfAborted(signal);
    const files = [data, ...sideFiles(p, [data], true)];
    onProgress?.(6, 6);
    return { files };
  };
}
