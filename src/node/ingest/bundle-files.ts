/**
 * The text files of an ingested bundle (./index.ts, step 4): vi.csv (every field of the input
 * catalog plus the bundle's own, records for key layers and helper columns), iso.csv, the
 * country outlines and places copied from this package, README.md (what was ingested, how
 * class columns were matched, what was dropped) and manifest.json (sha256 of every file).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classTablePath, markSeries, serialiseManifest, seriesText } from '../../core/bundle';
import { serialiseVi } from '../../core/bundle/tables-write';
import { VI_FIELDS } from '../../core/bundle';
import { gridText, type GridDef } from '../../core/grid';
import { CLASS_RULE_TEXT, isoCsv, type ClassRule, type CountryCells } from '../../core/ingest/classes';
import type { Finding, Findings } from '../../core/ingest/findings';
import { formulaColumns } from '../../core/ingest/plan';
import { markdownText } from '../../core/formats/pkg';
import type { Layer } from './layer';

const KEY_LABEL: Record<string, [string, string]> = {
  ISO3: ['Country code (ISO3)', 'Country'],
  ADM0_NAME: ['Country name', 'Country'],
  ADM1_NAME_ALT: ['Admin-1 unit name', 'Admin-1'],
  ADM1_CODE_ALT: ['Admin-1 unit code', 'Admin-1'],
  ADM2_NAME_ALT: ['Admin-2 unit name', 'Admin-2'],
  ADM2_CODE_ALT: ['Admin-2 unit code', 'Admin-2'],
};

/** Inputs of {@link writeBundleFiles}. */
export interface BundleFilesInput {
  /** Fields of the input catalog, in order. */
  catFields: string[];
  /** Records of the input catalog (trimmed text). */
  records: Record<string, string>[];
  /** Layers written. */
  kept: Layer[];
  /** Name(s) of the table file(s). */
  source: string;
  /** Name of the catalog file. */
  catalog: string;
  /** Table rows read. */
  rows: number;
  /** Rows whose cell was written. */
  validRows: number;
  /** Findings of the run. */
  found: Findings;
  /** Text encoding of the table. */
  encoding: 'utf8' | 'latin1';
  /** Bundle window. */
  grid: GridDef;
  /** Whether the window was fixed by the caller (else the bounding box of the table's cells). */
  fixedWindow?: boolean;
  /** Cells and extents per ISO3. */
  countries: Map<string, CountryCells>;
  /** Writes a file of the bundle (relative path) and lists it for the manifest. */
  addFile: (rel: string, data: Uint8Array | string) => Promise<void>;
  /** Files written so far (sorted into the manifest). */
  files: Array<{ path: string; bytes: number; sha256: string }>;
  /** The temporary bundle folder. */
  tmp: string;
}

/**
 * Writes vi.csv, iso.csv, the copied basemap files, README.md and manifest.json.
 * @param o see {@link BundleFilesInput}
 * @returns the droppable findings (what was dropped, listed in the README)
 * @throws Error from the file system
 */
export async function writeBundleFiles(o: BundleFilesInput): Promise<Finding[]> {
  const fields = [...o.catFields];
  for (const f of VI_FIELDS) if (!fields.includes(f)) fields.push(f);
  const today = new Date().toISOString().slice(0, 10);
  const outRecs: Record<string, string>[] = [];
  const keptByCode = new Map(o.kept.map((l) => [l.plan.code, l]));
  const finish = (rec: Record<string, string>, l: Layer) => {
    rec.dataType = l.sampleType!;
    rec.noData = String(l.noData);
    rec.classTable = l.classes ? classTablePath(l.plan.code) : '';
    if (l.classes) rec.type = 'class';
    return rec;
  };
  for (const rec of o.records) {
    const l = keptByCode.get(rec.varCode);
    if (l && l.plan.record === rec) outRecs.push(finish({ ...rec }, l));
  }
  for (const l of o.kept) {
    if (l.plan.record) continue;
    const code = l.plan.code;
    if (l.plan.role === 'key') {
      const [label, item] = KEY_LABEL[code] ?? [code, code];
      outRecs.push(finish({
        varCode: code, varLabel: label, varTitle: label, varDesc: `Key column ${code} of the ingested table ${o.source}; one class per unit, identified by its whole key (country, admin-1, admin-2).`,
        unit: 'class', type: 'class', dec: '0', aggFunR: `dominant(${code})`, cat1: 'Administrative', cat2: 'Boundaries', cat3: item,
        sources: o.source, sourceMini: o.source, version: '', published: '', year: '', yearEnd: '',
      }, l));
    } else {
      const users = o.records.filter((x) => formulaColumns(x.aggFunR ?? '').includes(code)).map((x) => x.varCode);
      outRecs.push(finish({
        varCode: code, varLabel: `${code} (helper column)`, varTitle: `${code} (helper column)`,
        varDesc: `Helper column ${code} of the ingested table ${o.source}, without a catalog record; formulas of ${users.join(', ')} use it. Not listed by category().`,
        unit: '', type: 'continuous', dec: '2', aggFunR: `sum(${code}, na.rm=TRUE)`, cat1: 'Helper columns', cat2: '', cat3: '',
        sources: o.source, sourceMini: o.source, published: 'FALSE',
      }, l));
    }
  }
  // Country outlines and place names for the map (Natural Earth, keyed by ISO3; GeoNames places of the
  // 49 countries; independent of the table), when this package has them.
  for (const f of ['basemap/countries.geojson', 'basemap/places.csv']) {
    try {
      await o.addFile(f, await readFile(new URL(`../../../public/data/${f}`, import.meta.url)));
    } catch {
      // not shipped with this installation: the map draws without outlines / place search
    }
  }
  // series (an explicit series column, <CODE>_<YYYY> codes, CELL5M two-digit years), listed as findings
  for (const f of markSeries(outRecs, fields)) o.found.add({ kind: 'series', severity: 'info', message: `Series formed: ${seriesText(f)}. Query it as var = "${f.stem}" with year.` });
  await o.addFile('vi.csv', serialiseVi(fields, outRecs));
  await o.addFile('iso.csv', isoCsv(o.grid, o.countries));
  const droppedFindings = o.found.list.filter((f) => f.severity === 'droppable');
  await o.addFile('README.md', bundleReadme({ grid: o.grid, fixed: !!o.fixedWindow, source: o.source, catalog: o.catalog, today, rows: o.rows, validRows: o.validRows, layers: o.kept.length, records: outRecs.length, dropped: droppedFindings, encoding: o.encoding, classRules: o.kept.filter((l) => l.rule).map((l) => [l.plan.code, l.rule!] as [string, ClassRule]) }));
  o.files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const manifest = { name: 'indapi3-bundle', version: `${today.slice(0, 4)}.${today.slice(5, 7)}.1`, created: today, source: { table: o.source, catalog: o.catalog, ingested: new Date().toISOString() }, grid: { ...o.grid }, files: o.files };
  await writeFile(join(o.tmp, 'manifest.json'), serialiseManifest(manifest));
  return droppedFindings;
}

/** A file name in the README: in a code span when it holds no backtick, else as escaped text. */
const fileName = (name: string): string => (name.includes('`') ? markdownText(name) : `\`${name}\``);

function bundleReadme(o: { grid: GridDef; fixed: boolean; source: string; catalog: string; today: string; rows: number; validRows: number; layers: number; records: number; dropped: Finding[]; encoding: string; classRules: Array<[string, ClassRule]> }): string {
  const lines = [
    `# indapi3 data bundle (ingested)`,
    '',
    `Ingested on ${o.today} by \`npm run ingest\` (src/node/ingest) from the table ${fileName(o.source)} (${o.rows} rows, ${o.validRows} cells written, read as ${o.encoding === 'utf8' ? 'UTF-8' : 'Latin-1'}) and the catalog ${fileName(o.catalog)} (${o.records} records written).`,
    '',
    'The values are those of the input table; this bundle adds nothing. Layout as the embedded bundle (public/data/README.md):',
    '',
    `- \`cog/<code>.tif\`: one Cloud-Optimized GeoTIFF per layer on the 5-arc-minute grid (EPSG:4326, cell-registered, window ${gridText(o.grid)} degrees, ${o.grid.width} x ${o.grid.height} cells, global column offset ${o.grid.colOffset} and row offset ${o.grid.rowOffset} of CELL5M's 4320 x 2160 lattice; ${o.fixed ? 'a fixed window given to the ingest' : "the bounding box of the table's cells"}), 256 x 256 tiles, DEFLATE with predictor, internal overviews (average for continuous layers, mode for classes). Continuous: Float32, no-data -9999; classes: Byte (no-data 255) or UInt16 (no-data 65535).`,
    '- `classes/<code>.csv`: class tables `value,label,color` and extras. Text classes are numbered 1..n in sorted label order; numeric class codes keep their value. Key layers identify a unit by its whole key: ADM1 by (ISO3, ADM1 name), ADM2 by (ISO3, ADM1, ADM2).',
    '- `vi.csv`: every field of the input catalog, then the bundle fields (dataType, noData, classTable, ...). Helper columns named by formulas but without a record carry `published` FALSE and are not listed by category().',
    '- `iso.csv`: countries of the ISO3 column (names from ADM0_NAME), regions SSA, EAF, MAF, SAF, WAF limited to the countries present.',
    '- `basemap/admin1.geojson` (and `basemap/admin2.geojson` when the table has ADM2 units): one (Multi)Polygon per unit of ADM1_NAME_ALT (ADM2_NAME_ALT), the union of its cells traced along the cell edges (vertices on the 1/12-degree lattice, 6 decimals), properties `value` (the unit\'s raster value), `code` (when the table has codes), `name`, `iso3` (and `adm1`); `basemap/countries.geojson` and `basemap/places.csv`: Natural Earth country outlines and GeoNames places (CC BY 4.0) copied from this package.',
    '- `manifest.json`: grid, every file with size and sha256.',
    '',
    '## Class columns: how values were matched to the catalog',
    '',
    ...(o.classRules.length ? o.classRules.map(([c, r]) => `- \`${c}\`: ${CLASS_RULE_TEXT[r]}.`) : ['No class indicator columns.']),
    '',
    `## Dropped (${o.dropped.length})`,
    '',
    ...(o.dropped.length ? o.dropped.map((f) => `- ${f.kind}: ${markdownText(f.message)}`) : ['Nothing was dropped.']),
    '',
  ];
  return lines.join('\n');
}
