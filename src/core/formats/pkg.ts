/**
 * The side files of a data package: `meta.csv`, `README.md`, `datapackage.json`,
 * `DESCRIPTION` and `terms.html`.
 *
 * - `datapackage.json` follows Frictionless Data Package v2
 *   (https://datapackage.org/standard/data-package/, profile
 *   https://datapackage.org/profiles/2.0/datapackage.json) and stays readable by v1 tools
 *   (`profile: "tabular-data-package"` when every resource is a table, with
 *   `profile: "tabular-data-resource"` and a Table Schema,
 *   https://datapackage.org/standard/table-schema/; raster packages are a plain
 *   `"data-package"` whose raster resources carry path, format and mediatype).
 * - `DESCRIPTION` is a Debian-control-style record as R packages use
 *   (https://cran.r-project.org/doc/manuals/r-release/R-exts.html#The-DESCRIPTION-file):
 *   `Field: value` lines, continuation lines indented by one space.
 */
import type { ColumnInfo, QueryValue } from '../api';
import type { VarRecord } from '../types';
import { xmlEscape } from './bytes';
import { csvText } from './csv';
import { rObjectName } from './rds';

/**
 * Catalog or user text for a Markdown file: `&`, `<`, `>` as entities, so raw HTML in it
 * (`<img onerror=...>`, `<script>`) is shown as text by every renderer (CommonMark 6.6 "Raw
 * HTML" is only recognised from a literal `<`).
 */
export function markdownText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Name of the producer written in labels and descriptions. */
export const PRODUCER = 'indapi3';

/** Licence of every data package (the original's choice). */
export const PACKAGE_LICENSE = {
  name: 'ODC-BY-1.0',
  path: 'https://opendatacommons.org/licenses/by/1-0/',
  title: 'Open Data Commons Attribution License v1.0',
};

/** Columns of `meta.csv`, in order. */
export const META_COLUMNS = ['code', 'label', 'description', 'type', 'unit', 'version', 'aggFormula', 'period', 'category', 'subcategory', 'item', 'source', 'contact', 'downloadedOn', 'citation'] as const;

/** Period of a record: `year`, or `year-yearEnd` when they differ. */
export function period(r: VarRecord): string {
  if (r.year && r.yearEnd && r.yearEnd !== r.year) return `${r.year}-${r.yearEnd}`;
  return r.year || r.yearEnd || '';
}

/**
 * `meta.csv` text: one row per catalog record.
 * @param meta records of the var and by codes
 * @param now download date
 */
export function metaCsv(meta: VarRecord[], now: Date): string {
  const day = now.toISOString().slice(0, 10);
  return csvText(
    [...META_COLUMNS],
    meta.map((r) => [r.varCode, r.varLabel, r.varDesc, r.type, r.unit, r.version, r.aggFunR, period(r), r.cat1, r.cat2, r.cat3, r.sources, r.owner, day, r.citation]),
  );
}

/** Everything the side files describe. */
export interface PackageInfo {
  /** Package name (file base), e.g. "getLayer-ELEVATION-ADM1_NAME_ALT-KEN". */
  base: string;
  /** Normalised format. */
  format: string;
  /** Method called. */
  method: string;
  /** The request as a query value: its codes, `iso3` upper-cased (what names and titles read). */
  query: QueryValue;
  /** The request as sent, only shown (README, datapackage.json, DESCRIPTION, the commands that reproduce it). */
  shownRequest: Readonly<Record<string, unknown>>;
  /** Catalog records of the var and by codes. */
  meta: VarRecord[];
  /** Files of the package (data files first), without the side files being written. */
  dataFiles: Array<{ name: string; mediaType: string; format: string; columns?: ColumnInfo[]; description?: string }>;
  /** Request URL the package came from, for the curl command. */
  requestUrl?: string;
  /** Creation time. */
  now: Date;
  /** Bundle version, used as the package version. */
  version?: string;
  /**
   * Class layers of a raster package (tif, asc, grd), for the README's class coding table:
   * per class its 0-based index (the pixel value of tif/asc), its catalog class value (the
   * value grd, dta and rds hold) and its label.
   */
  classLayers?: ClassCoding[];
  /**
   * Shape of a GeoJSON package: `zonal` one polygon per group carrying the group's summary,
   * `cells` one point per cell carrying the cell's values.
   */
  geojson?: 'zonal' | 'cells';
}

/** How a class layer is coded in the raster files: index (tif, asc) -> catalog value (grd) -> label. */
export interface ClassCoding {
  /** Layer code. */
  code: string;
  /** Classes present in the selection, in index order. */
  classes: Array<{ index: number; value: number; label: string }>;
}

/**
 * A text as a sentence: trimmed, with a final period added unless it already ends with
 * `.`, `!` or `?` (source texts often end with one, so "…2.3.7." does not become "…2.3.7..").
 * @param s the text; empty gives ""
 */
export function sentence(s: string | undefined): string {
  const t = (s ?? '').trim();
  if (!t) return '';
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function title(info: PackageInfo): string {
  const { vars: codes, by, iso3: area } = info.query;
  const vars = info.meta.filter((m) => codes.includes(m.varCode));
  const what = (vars.length ? vars : info.meta).map((m) => m.varLabel || m.varCode).join(', ');
  return `${what}${by.length ? ` by ${by.join(', ')}` : ''}${area.length ? ` (${area.join(', ')})` : ''}`;
}


/** Unique sources of the records: one entry per distinct `sources` text, with the codes using it. */
export function uniqueSources(meta: VarRecord[]): Array<{ title: string; detail: string; license: string; citation: string; owner: string; codes: string[] }> {
  const out = new Map<string, { title: string; detail: string; license: string; citation: string; owner: string; codes: string[] }>();
  for (const r of meta) {
    const key = `${r.sources}\u0000${r.license}\u0000${r.citation}`;
    const e = out.get(key);
    if (e) e.codes.push(r.varCode);
    else out.set(key, { title: r.sourceMini || r.sources || r.varCode, detail: r.sources, license: r.license, citation: r.citation, owner: r.owner, codes: [r.varCode] });
  }
  return [...out.values()];
}

/** Table Schema type of a column. */
function fieldType(c: ColumnInfo): 'string' | 'number' | 'integer' {
  if (c.classes && c.classes.length) return 'string';
  return c.type;
}

/**
 * `datapackage.json` object.
 * @param info the package
 */
export function dataPackageJson(info: PackageInfo): Record<string, unknown> {
  const name = info.base.toLowerCase().replace(/[^a-z0-9._-]/g, '-');
  const sources = uniqueSources(info.meta).map((s) => ({ title: s.title + (s.detail && s.detail !== s.title ? `: ${s.detail}` : '') }));
  const keywords = [...new Set(info.meta.flatMap((m) => [m.cat1, m.cat2, m.cat3]).filter((k) => k))];
  const resources = info.dataFiles.map((f) => {
    const r: Record<string, unknown> = {
      name: f.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-'),
      path: f.name,
      format: f.format,
      mediatype: f.mediaType,
    };
    if (f.description) r.description = f.description;
    if (f.columns) {
      r.profile = 'tabular-data-resource';
      r.type = 'table';
      if (f.format === 'csv') r.encoding = 'utf-8';
      r.schema = {
        fields: f.columns.map((c) => {
          const fld: Record<string, unknown> = { name: c.name, type: fieldType(c), description: c.label, unit: c.unit };
          if (c.classes && c.classes.length) fld.constraints = { enum: [...new Set(c.classes.map((k) => String(k.label)))] };
          return fld;
        }),
        missingValues: [''],
      };
    }
    return r;
  });
  const created = info.now.toISOString();
  const pkg: Record<string, unknown> = {
    $schema: 'https://datapackage.org/profiles/2.0/datapackage.json',
    profile: resources.every((r) => r.profile === 'tabular-data-resource') ? 'tabular-data-package' : 'data-package',
    name,
    title: title(info),
    description: `Data package produced by ${PRODUCER} (${info.method}, format ${info.format}) from the request ${JSON.stringify(info.shownRequest)}. See README.md.`,
    version: info.version ?? '1.0.0',
    created,
    last_updated: created,
    licenses: [PACKAGE_LICENSE],
    contributors: [{ title: PRODUCER, roles: ['publisher'] }],
    resources,
  };
  if (keywords.length) pkg.keywords = keywords;
  if (sources.length) pkg.sources = sources;
  if (info.requestUrl && /^https?:\/\//.test(info.requestUrl)) pkg.homepage = info.requestUrl;
  return pkg;
}

/** Folds a DESCRIPTION field value: continuation lines start with a space; blank lines become " .". */
function field(name: string, value: string): string {
  const words = value.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let cur = `${name}:`;
  for (const w of words) {
    if (cur.length + 1 + w.length > 79 && cur.trim().length > name.length + 1) {
      lines.push(cur);
      cur = ` ${w}`;
    } else cur += ` ${w}`;
  }
  lines.push(cur);
  return lines.join('\n');
}

/**
 * `DESCRIPTION` text.
 * @param info the package
 * @param fileNames every file of the package
 */
export function descriptionText(info: PackageInfo, fileNames: string[]): string {
  const srcs = uniqueSources(info.meta);
  return (
    [
      field('Package', info.base),
      field('Type', 'Data'),
      field('Title', title(info)),
      field('Version', info.version ?? '1.0.0'),
      field('Date', info.now.toISOString().slice(0, 10)),
      field('Author', PRODUCER),
      field('Description', `Gridded indicators for Africa south of the Sahara on the 5-arc-minute grid (EPSG:4326), produced by ${PRODUCER} ${info.method} as ${info.format}. Request: ${JSON.stringify(info.shownRequest)}`),
      field('License', `${PACKAGE_LICENSE.name} (${PACKAGE_LICENSE.path}); source data under their own licences, see terms.html or README.md`),
      field('Source', srcs.map((s) => `${s.title} (${s.license || 'licence not stated'})`).join('; ') || 'none'),
      field('Variables', info.meta.map((m) => `${m.varCode} = ${m.varLabel}${m.unit ? ` (${m.unit})` : ''}`).join('; ')),
      field('Files', fileNames.join(', ')),
    ].join('\n') + '\n'
  );
}

/** Single-quoted shell word. */
function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Base URL written in READMEs when the request URL is unknown (the Node server's default). */
export const DEFAULT_BASE_URL = 'http://localhost:8080/ocpu';

/**
 * The base URL (`<origin>/ocpu`) and method of a request URL: e.g.
 * `https://x.org/app/ocpu/library/indapi3/R/indapi/json` -> `https://x.org/app/ocpu`, `indapi`.
 * Anything after the first whitespace is ignored (older callers appended the request JSON).
 * @param url the URL the request was sent to, or undefined
 * @returns base URL ({@link DEFAULT_BASE_URL} when unknown) and method ("" when unknown)
 */
export function requestBase(url: string | undefined): { base: string; method: string; known: boolean } {
  const u = (url ?? '').trim().split(/\s/)[0];
  const m = /^(https?:\/\/[^/\s]+(?:\/[^\s]*?)?\/ocpu)\/library\/indapi3\/R\/([A-Za-z0-9_.]+)/.exec(u);
  return m ? { base: m[1], method: m[2], known: true } : { base: DEFAULT_BASE_URL, method: '', known: false };
}

/**
 * The README's "reproduce it" shell commands: a `BASE=` line, then for a file request
 * (getLayer, getLayerWKT, indapi, genFile) a POST of the request JSON with `format` to
 * `$BASE/library/indapi3/R/indapi` saving the headers, the session id read from the
 * `X-ocpu-session` header and a GET of `$BASE/tmp/$SESSION/zip`; then the values as JSON
 * (`.../R/indapi/json`, the request without `format`). Every value is single-quoted for
 * POSIX shells (a `'` inside as `'\''`), so the lines run as printed.
 * @param info the package
 * @returns the lines of the `sh` block
 */
export function curlCommands(info: PackageInfo): string[] {
  const { base } = requestBase(info.requestUrl);
  const fileMethod = ['getLayer', 'getLayerWKT', 'indapi', 'genFile'].includes(info.method);
  const { format: sent, ...plain } = info.shownRequest;
  const withFormat = { ...plain, format: typeof sent === 'string' ? sent : info.format };
  const out = [`BASE=${shq(base)}`];
  if (fileMethod) {
    out.push(
      '# 1. run the request: the answer lists the session\'s files, one path per line',
      `curl -s -D headers.txt "$BASE/library/indapi3/R/indapi" -H 'Content-Type: application/json' -d ${shq(JSON.stringify(withFormat))}`,
      '# 2. fetch all files of the session as one ZIP (the session id is the X-ocpu-session header)',
      `SESSION=$(tr -d '\\r' < headers.txt | awk -F': ' 'tolower($1) == "x-ocpu-session" {print $2}')`,
      `curl -s -o ${shq(`${info.base}.zip`)} "$BASE/tmp/$SESSION/zip"`,
      '# the values alone, as JSON',
      `curl -s "$BASE/library/indapi3/R/indapi/json" -H 'Content-Type: application/json' -d ${shq(JSON.stringify(plain))}`,
    );
  } else {
    out.push('# the values as JSON', `curl -s "$BASE/library/indapi3/R/${info.method}/json" -H 'Content-Type: application/json' -d ${shq(JSON.stringify(plain))}`);
  }
  return out;
}

/**
 * `README.md` text: date, the request as JSON, shell commands reproducing it (see
 * {@link curlCommands}), the files, how to open the data file, the variables and the sources
 * with licences and citations.
 * @param info the package
 * @param fileNames every file of the package
 */
export function readmeText(info: PackageInfo, fileNames: string[]): string {
  const { base, known } = requestBase(info.requestUrl);
  const lines = [
    `# ${markdownText(title(info))}`,
    '',
    `Data package produced by ${PRODUCER} on ${info.now.toISOString()} (format \`${info.format}\`).`,
    '',
    '## Request',
    '',
    '```json',
    JSON.stringify(info.shownRequest, null, 2),
    '```',
    '',
    known
      ? `Reproduce it with the server that made this package (\`${base}\`: in the browser app that is the page's own origin, answered by its service worker while the page is open; the Node server, \`npm start\`, answers the same requests). Run in a POSIX shell:`
      : `Reproduce it with a server of this API (the Node server, \`npm start\`, listens on \`${base}\`; set \`BASE\` to yours). Run in a POSIX shell:`,
    '',
    '```sh',
    ...curlCommands(info),
    '```',
    '',
    ...dataFileNotes(info),
    ...domainsNotes(info),
    ...yearsNotes(info),
    '## Files',
    '',
    ...fileNames.map((f) => `- \`${f}\``),
    '',
    '## Variables',
    '',
    '| code | label | unit | type | period | aggregation |',
    '|---|---|---|---|---|---|',
    ...info.meta.map((m) => `| ${[m.varCode, m.varLabel, m.unit, m.type, period(m), m.aggFunR].map((s) => markdownText(s ?? '').replace(/\|/g, '\\|')).join(' | ')} |`),
    '',
    '## Sources, licences and citations',
    '',
  ];
  for (const s of uniqueSources(info.meta)) {
    // catalog text as entities, as the variables above (a citation in raw HTML ran in a Markdown viewer)
    const m = markdownText;
    const parts = [m(sentence(s.detail)), `Licence: ${m(sentence(s.license || 'not stated'))}`, `Citation: ${m(sentence(s.citation || 'not stated'))}`, s.owner ? `Contact: ${m(sentence(s.owner))}` : ''];
    lines.push(`- **${m(s.title)}** (${m(s.codes.join(', '))}): ${parts.filter((x) => x).join(' ')}`);
  }
  lines.push('', `The package itself is licensed under ${PACKAGE_LICENSE.title} (${PACKAGE_LICENSE.path}).`, '');
  if (['tif', 'asc', 'grd'].includes(info.format)) {
    lines.push(
      '## Rasters',
      '',
      ...(info.query.by.length
        ? ['Values: with `by`, every cell holds the summary of its group (unit, class or interval; a zonal map), not its own value: each unit\'s value repeats over its cells, so do not sum cells; the summary table (csv, dta, rds, rda) has one row per group.', '']
        : ['Values: each cell\'s own value.', '']),
      'Grid: EPSG:4326, 5-arc-minute cells (1/12 degree) on the global lattice, clipped to the selected cells\' bounding box.',
      'Continuous layers: Float32, no data -9999 (tif, asc; grd: NaN with nodatavalue -3.4e+38).',
      'Class layers: tif/asc hold 0-based class indices (as the original service wrote them; tif Byte, no data 255, colour table; asc no data -9999), with the class names and a raster attribute table (columns `value` = index, `class_value` = catalog class value, `label`) in the `.aux.xml` side-car; grd, dta and rds hold the catalog class values. Id layers (a catchment\'s NEAREST_SOURCE and COVERED_BY) hold the 1-based `source_id` itself in every format, as the CSV and meta.csv name it.',
      '',
    );
    if (info.format === 'grd' && (info.classLayers ?? []).length > 0) {
      lines.push(
        'The grd file (R `raster` format) carries class labels only when it has a single band: the format has one attribute table per file (`ratnames`/`ratvalues`), which R (`raster`, `terra`) and GDAL apply to every band, so `raster::writeRaster` itself writes none for a multi-layer brick. In a multi-band grd, class bands hold the catalog class values without labels: use the table below.',
        '',
      );
    }
    for (const c of info.classLayers ?? []) {
      const esc = (x: string) => x.replace(/\|/g, '\\|');
      lines.push(
        `### Class coding of ${c.code}`,
        '',
        'Classes present in the selection (the `.aux.xml` of tif/asc carries the whole table).',
        '',
        '| index (tif, asc pixel value) | class value (grd, dta, rds) | label |',
        '|---|---|---|',
        ...c.classes.map((k) => `| ${k.index} | ${k.value} | ${esc(k.label)} |`),
        '',
      );
    }
  }
  return lines.join('\n');
}

/**
 * `terms.html`: terms of use, the package licence and every source's licence and citation.
 * @param info the package
 */
export function termsHtml(info: PackageInfo): string {
  const e = xmlEscape;
  const items = uniqueSources(info.meta)
    .map(
      (s) =>
        `<li><h3>${e(s.title)}</h3><p>${e(s.detail)}</p><dl><dt>Indicators</dt><dd>${e(s.codes.join(', '))}</dd><dt>Licence</dt><dd>${e(s.license || 'not stated')}</dd><dt>Citation</dt><dd>${e(s.citation || 'not stated')}</dd>${s.owner ? `<dt>Contact</dt><dd>${e(s.owner)}</dd>` : ''}</dl></li>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Terms of use: ${e(info.base)}</title></head>
<body>
<h1>Terms of use</h1>
<p>This data package (${e(info.base)}) was produced by ${e(PRODUCER)} on ${e(info.now.toISOString())}. It is made available under the
<a href="${e(PACKAGE_LICENSE.path)}">${e(PACKAGE_LICENSE.title)}</a> (${e(PACKAGE_LICENSE.name)}): you may share and adapt it if you attribute it and its sources.
The source data remain under their own licences, listed below; cite each source you use.</p>
<h2>Sources</h2>
<ul>
${items}
</ul>
</body>
</html>
`;
}

/**
 * README lines on the zones of a `classify` package: what its key column (`feature`, `name` or
 * the request's `key`) holds and how rows relate to the shapes of `domains`; when `domains` was
 * a file uploaded in the app (the request then shows a description of it in place of the
 * shapes), how to send the same shapes to the API. [] for other methods.
 */
function domainsNotes(info: PackageInfo): string[] {
  if (info.method !== 'classify') return [];
  const cols = info.dataFiles[0]?.columns ?? [];
  const sentKey = typeof info.shownRequest.key === 'string' ? info.shownRequest.key : undefined;
  const key = sentKey ?? cols.find((c) => c.role === 'key' && ['feature', 'name'].includes(c.name))?.name ?? 'feature';
  const d = info.shownRequest.domains;
  const uploaded = typeof d === 'string' && /^<.*>$/.test(d.trim());
  const what = key === 'feature'
    ? '`feature` is the shape\'s number: its position, from 1, among the shapes of `domains` (in a GeoJSON FeatureCollection or an uploaded file, the order of its features; in a list of WKT, the order of the list)'
    : key === 'name' && sentKey === undefined
      ? '`name` is the shape\'s name: its `name` property (GeoJSON) or its name in a named list of WKT; a shape without one has its number, from 1'
      : `\`${key}\` is the shape's \`${key}\` property, as \`key\` asked; a shape without one has its number, from 1`;
  return [
    '## Zones (`domains`)',
    '',
    `Each row summarises the cells of one shape of \`domains\` (with the \`histogram\` statistic, one row per shape and bin), each cell weighted by ${info.shownRequest.exact === true ? 'the fraction of its area the shape covers (`exact = TRUE`)' : 'whether its centre is inside the shape (a shape covering no cell centre weights the cells it touches by the covered fraction)'}. ${what}.`,
    ...(uploaded ? ['', `The shapes came from a file uploaded in the app (\`domains\` above describes it: ${markdownText(d as string)}); the GeoPackage download carries each shape's geometry beside its row. To repeat the request with the API, send the file's features as a GeoJSON FeatureCollection in \`domains\` (e.g. \`ogr2ogr -f GeoJSON -t_srs EPSG:4326 shapes.geojson <file>\`), in the same order, so their numbers match.`] : []),
    '',
  ];
}

/**
 * README lines on the years of a table over series (src/core/engine/years.ts): long form (a
 * `year` column), one column per year (wide, `<CODE>_<YYYY>`), or the change between two years
 * (`year_from`, `year_to`, each value column the change in the unit the file gives it, not the
 * indicator's unit of the Variables table). [] for a table without years.
 */
function yearsNotes(info: PackageInfo): string[] {
  const cols = info.dataFiles[0]?.columns ?? [];
  const names = new Set(cols.map((c) => c.name));
  const values = cols.filter((c) => c.role === 'value');
  if (names.has('year_from') && names.has('year_to')) {
    const pct = info.shownRequest.change === 'pct';
    const how = pct ? '100 * (to - from) / from, in percent' : 'to - from, in the unit of the indicator';
    const list = values.map((c) => `\`${c.name}\` (${c.unit || 'no unit'})`).join(', ');
    return ['## Years', '', `One row per unit: the change from \`year_from\` to \`year_to\` (${how}; empty where either year has no value${pct ? ' or the first is 0' : ''}). Columns and their units here: ${list}; the Variables table below gives each indicator's own unit.`, ''];
  }
  if (names.has('year')) return ['## Years', '', 'Long form: one row per unit and year (column `year`, blocks by year); a unit without a value in a year has an empty value there, never an interpolated one.', ''];
  const wide = values.filter((c) => /_\d{4}$/.test(c.name));
  if (Array.isArray(info.shownRequest.year) && wide.length) return ['## Years', '', `Wide form: one row per unit and one column per indicator and year (\`${wide[0].name}\` ...; Stata's \`reshape wide\`).`, ''];
  return [];
}

/** README lines on how to open the data file (rda, rds, GeoJSON). */
function dataFileNotes(info: PackageInfo): string[] {
  const data = info.dataFiles[0]?.name;
  if (!data) return [];
  if (info.format === 'rda') {
    const obj = rObjectName(info.base);
    return [
      '## Opening the data',
      '',
      `\`${data}\` is an RData file (R's \`save()\` format) holding one data.frame named \`${obj}\` (the file name as R's \`make.names\` makes it): \`load("${data}")\` creates it and returns its name, e.g. \`d <- get(load("${data}"))\`. Columns carry a \`label\` attribute; the data.frame carries \`var.labels\`, \`datalabel\` and \`time.stamp\` as \`foreign::read.dta\` gives them; class columns are factors.`,
      '',
    ];
  }
  if (info.format === 'rds') {
    return ['## Opening the data', '', `\`${data}\` holds one data.frame: \`d <- readRDS("${data}")\`. Columns carry a \`label\` attribute; the data.frame carries \`var.labels\`, \`datalabel\` and \`time.stamp\`; class columns are factors.`, ''];
  }
  if (info.format === 'json' && info.geojson) {
    const d = info.dataFiles[0]?.description ?? '';
    return ['## Opening the data', '', `\`${data}\`: ${d} The same text is the file's top-level \`description\` member.`, ''];
  }
  return [];
}
