/**
 * What every writer shares: files with their media types, the package description
 * ({@link PackageInfo}) of a request and the side files of a data package (meta.csv,
 * README.md, datapackage.json, DESCRIPTION, terms.html; see ../pkg.ts).
 */
import type { GeneratedFile } from '../../api';
import type { VarRecord } from '../../types';
import { utf8 } from '../bytes';
import { dataFileBase, type RequestCodes } from '../names';
import { dataPackageJson, descriptionText, metaCsv, PRODUCER, readmeText, termsHtml, type PackageInfo } from '../pkg';
import type { WriterInput } from '../types';

/** Media types of the files by extension (the original's, GeoJSON's from RFC 7946, GeoPackage's from OGC 12-128r18). */
export const MEDIA_TYPES: Record<string, string> = {
  csv: 'text/csv',
  dta: 'application/x-stata-dta',
  rds: 'application/octet-stream',
  rda: 'application/octet-stream',
  geojson: 'application/geo+json',
  gpkg: 'application/geopackage+sqlite3',
  tif: 'image/tiff',
  tfw: 'text/plain',
  xml: 'application/xml',
  asc: 'application/x-ascii-grid',
  prj: 'text/plain',
  grd: 'application/octet-stream',
  gri: 'application/octet-stream',
  png: 'image/png',
  svg: 'image/svg+xml',
  json: 'application/json',
  md: 'text/markdown',
  html: 'text/html',
  DESCRIPTION: 'text/plain',
};

/** A file named `name` (media type from its extension); text is written as UTF-8. */
export function fileOf(name: string, bytes: Uint8Array | string): GeneratedFile {
  const ext = name.includes('.') ? (name.split('.').pop() as string) : name;
  return { name, mediaType: MEDIA_TYPES[ext] ?? 'application/octet-stream', bytes: typeof bytes === 'string' ? utf8(bytes) : bytes };
}

/** The catalog record of `code`, if any. */
export function recordOf(meta: VarRecord[], code: string): VarRecord | undefined {
  return meta.find((m) => m.varCode === code);
}

/** The `meta.csv` resource of datapackage.json. */
export const META_CSV_RESOURCE: PackageInfo['dataFiles'][number] = {
  name: 'meta.csv',
  mediaType: 'text/csv',
  format: 'csv',
  description: 'Catalog records of the variables.',
  columns: ['code', 'label', 'description', 'type', 'unit', 'version', 'aggFormula', 'period', 'category', 'subcategory', 'item', 'source', 'contact', 'downloadedOn', 'citation'].map((n) => ({ name: n, role: 'value' as const, label: n, unit: '', type: 'string' as const })),
};

/** Data label of tabular files (Stata data label, R `datalabel`). */
export function dataLabel(method: string, codes: RequestCodes): string {
  return `${PRODUCER} ${method}: ${codes.vars.join(', ')}${codes.by.length ? ` by ${codes.by.join(', ')}` : ''} in ${codes.area.join(', ')}`;
}

/** A request's package context: its codes, data file base name, catalog records, creation time and package description. */
export interface PackageContext {
  codes: RequestCodes;
  base: string;
  meta: VarRecord[];
  now: Date;
  info: PackageInfo;
}

/**
 * The package context of a writer's input.
 * @param input the writer's input; `format` is the normalised name
 */
export function packageContext(input: WriterInput, format: string): PackageContext {
  const codes = input.query;
  const now = input.now ?? new Date();
  const meta = input.meta.length ? input.meta : (input.table?.meta ?? input.cells?.meta ?? []);
  const base = dataFileBase(input.method, codes);
  const info: PackageInfo = { base, format, method: input.method, query: input.query, shownRequest: input.shownRequest, meta, dataFiles: [], requestUrl: input.requestUrl, now, version: input.version };
  return { codes, base, meta, now, info };
}

/**
 * The side files after the data files: meta.csv, README.md, datapackage.json, DESCRIPTION
 * and (tabular packages) terms.html. Adds meta.csv to the package's resources.
 * @param data the data files, listed first
 * @param terms whether to write terms.html (the tabular packages do; raster READMEs carry the licences)
 */
export function sideFiles(p: PackageContext, data: GeneratedFile[], terms: boolean): GeneratedFile[] {
  p.info.dataFiles.push(META_CSV_RESOURCE);
  const names = [...data.map((f) => f.name), 'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION', ...(terms ? ['terms.html'] : [])];
  return [
    fileOf('meta.csv', metaCsv(p.meta, p.now)),
    fileOf('README.md', readmeText(p.info, names)),
    fileOf('datapackage.json', JSON.stringify(dataPackageJson(p.info), null, 2) + '\n'),
    fileOf('DESCRIPTION', descriptionText(p.info, names)),
    ...(terms ? [fileOf('terms.html', termsHtml(p.info))] : []),
  ];
}
