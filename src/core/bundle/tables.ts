/**
 * The bundle's CSV files, read: `vi.csv` (the catalog), `iso.csv` (countries and regions) and
 * class tables (`classes/<code>.csv`), RFC 4180 through src/core/csv; their writers are in
 * ./tables-write.ts. Text a spreadsheet would run as a formula (`=HYPERLINK(...)`, `@SUM(1)`)
 * has a leading `'` in the files (OWASP CSV injection) that the parsers take off again.
 */
import { parseCsvRecords } from '../csv';
import { IndapiError } from '../errors';
import type { ClassEntry, IsoEntry, VarRecord } from '../types';

/** Field names of vi.csv, in order (the {@link VarRecord} fields). */
export const VI_FIELDS: Array<keyof VarRecord> = [
  'varCode', 'varLabel', 'varTitle', 'varDesc', 'unit', 'type', 'dec', 'aggFunR', 'classBreaks', 'classLabels',
  'classColors', 'cat1', 'cat2', 'cat3', 'year', 'yearEnd', 'sources', 'sourceMini', 'owner', 'citation', 'license',
  'version', 'published', 'dataType', 'noData', 'classTable',
];

/**
 * Parses vi.csv text into records (dec as a number). Fields that are not {@link VI_FIELDS}
 * (an ingested catalog keeps all the original's fields) are kept on the record as text.
 * @throws IndapiError IO when the CSV is malformed or lacks fields
 */
export function parseVi(text: string): VarRecord[] {
  const rows = parseCsvRecords(text, 'vi.csv').records;
  if (rows.length && !('varCode' in rows[0] && 'aggFunR' in rows[0] && 'type' in rows[0])) {
    throw new IndapiError('IO', 'vi.csv lacks the varCode, type or aggFunR column.');
  }
  const known = new Set<string>(VI_FIELDS);
  return rows.map((r) => {
    const rec: Record<string, unknown> = {};
    for (const f of VI_FIELDS) rec[f] = (r[f] ?? '').trim();
    // Fields beyond VarRecord (the original catalog's isDomain, tbName, dKeywords, ...) stay on the record.
    for (const [k, v] of Object.entries(r)) if (!known.has(k)) rec[k] = (v ?? '').trim();
    rec.dec = Number(r.dec) || 0;
    rec.type = r.type === 'class' ? 'class' : 'continuous';
    return rec as unknown as VarRecord;
  });
}

/**
 * vi.csv as text records, every column kept (for tools that add or replace records and must
 * keep fields this version does not know; the typed reader is `parseVi`).
 * @param text the file's text (a UTF-8 BOM is dropped)
 * @param name file name for messages
 * @returns the header's fields in order and one record per row
 * @throws IndapiError IO when the CSV cannot be parsed
 */
export function parseViRecords(text: string, name = 'vi.csv'): { fields: string[]; records: Array<Record<string, string>> } {
  return parseCsvRecords(text, name);
}

/**
 * Parses a class table (`value,label,color,...extras`).
 * @param what the file's name for messages
 * @throws IndapiError IO when values are not integers
 */
export function parseClassTable(text: string, what = 'class table'): ClassEntry[] {
  return parseCsvRecords(text, what).records.map((r) => {
    const value = Number(r.value);
    if (!Number.isInteger(value)) throw new IndapiError('IO', `${what}: class value '${r.value}' is not an integer.`);
    const e: ClassEntry = { value, label: r.label ?? String(value) };
    if (r.color) e.color = r.color;
    for (const [k, v] of Object.entries(r)) if (k !== 'value' && k !== 'label' && k !== 'color') e[k] = v;
    return e;
  });
}

/** A row of iso.csv with its cell count. */
export interface IsoRow extends IsoEntry {
  /** Number of grid cells of the code. */
  cells: number;
}

/** The columns of iso.csv, in order. */
export const ISO_FIELDS = ['code', 'name', 'type', 'members', 'xmin', 'ymin', 'xmax', 'ymax', 'cells'] as const;

/** Parses iso.csv (members `|`-separated, extent in degrees, cells of the grid). @throws IndapiError IO */
export function parseIso(text: string): IsoRow[] {
  return parseCsvRecords(text, 'iso.csv').records.map((r) => ({
    code: r.code,
    name: r.name,
    type: r.type === 'region' ? 'region' : 'country',
    members: (r.members ?? '').split('|').filter(Boolean),
    bboxDeg: [Number(r.xmin), Number(r.ymin), Number(r.xmax), Number(r.ymax)],
    cells: Number(r.cells) || 0,
  }));
}
