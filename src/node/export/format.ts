/**
 * Text formatting of the CELL5M-style table and the original-style catalog (`vi.csv`).
 * Pure functions (no I/O).
 */
import type { VarRecord } from '../../core/types';

/**
 * Decimal text that reads back to the same 32-bit float (COG samples are Float32), as short as
 * cheaply found: integers as integers; else the fewest decimals up to 3 (`Math.round(v * 10^d)
 * / 10^d`, pure arithmetic, the common case of values given with a few decimals); else the first
 * of 7, 8 and 9 significant digits that reads back (9 always do, IEEE 754). Always exact; the
 * shortest possible except rarely for values below 0.001, e.g. 9.689001e-7 where 9.689e-7 would do.
 * @param v a value representable as Float32 (NaN is not allowed: write an empty field instead)
 */
export function float32Text(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  for (let d = 1, m = 10; d <= 3; d++, m *= 10) {
    const n = Math.round(v * m) / m;
    if (Math.fround(n) === v) return String(n);
  }
  for (let p = 7; p < 9; p++) {
    const n = Number(v.toPrecision(p));
    if (Math.fround(n) === v) return String(n);
  }
  return String(Number(v.toPrecision(9)));
}

/**
 * Decimal text of a continuous value as its COG stores it: a Float32 sample as
 * {@link float32Text}; any other double (a scaled integer layer's `n / 10^k`, a Float64 sample;
 * src/core/cog/decode.ts) as the shortest decimal that reads back to the same double
 * (ECMAScript Number::toString), so `fread`/`parseFloat` read the very value the engine uses.
 * @param v a value (NaN is not allowed: write an empty field instead)
 */
export function valueText(v: number): string {
  return Math.fround(v) === v ? float32Text(v) : String(v);
}

/** A CSV text field, always quoted, with `"` doubled (RFC 4180). */
export function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * Fields of the original catalog (`vi`), in the original's order (issue 9: "the catalog (vi),
 * CSV with the original's 40+ fields").
 */
export const ORIGINAL_VI_FIELDS = [
  'varCode', 'varLabel', 'varTitle', 'published', 'isDomain', 'isProduct', 'tbName', 'version', 'mxdName', 'tbKey',
  'varDesc', 'unit', 'dec', 'year', 'yearEnd', 'genRaster', 'cat1', 'cat2', 'cat3', 'extent', 'type', 'format',
  'aggType', 'aggFun', 'owner', 'caveat', 'sources', 'sourceMini', 'citation', 'dPublished', 'dAuthor', 'dTopic',
  'dCrop', 'dKeywords', 'classColors', 'classBreaks', 'classLabels', 'id', 'aggFunR', 'aggCodes',
] as const;

/** Fields of this project's records that the original catalog has no column for, written after the original's. */
export const EXTRA_VI_FIELDS = ['license', 'dataType', 'noData', 'classTable'] as const;

/** Key columns of the CELL5M table that name a unit (written as text), in header order. */
export const KEY_CODES = ['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ADM2_NAME_ALT'] as const;

/** Short aggregation name of a formula, as the original's `aggType`/`aggFun` fields give it. */
function aggName(aggFunR: string): string {
  const m = /^\s*\(?\s*([A-Za-z.]+)\s*\(/.exec(aggFunR);
  if (!m) return '';
  if (m[1] === 'names' || m[1] === 'dominant') return 'dominant';
  return m[1];
}

/** Codes of the columns a formula names (identifiers that are not functions or arguments). */
export function formulaCodes(aggFunR: string): string[] {
  const out: string[] = [];
  const re = /[A-Za-z][A-Za-z0-9_.]*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(aggFunR))) {
    const id = m[0];
    const after = aggFunR.slice(re.lastIndex).trimStart();
    if (after.startsWith('(') || after.startsWith('=')) continue; // function or named argument
    if (['TRUE', 'T', 'FALSE', 'F', 'na.rm', 'decreasing'].includes(id)) continue;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * One record as a row of the original-style catalog: every original field, filled from the
 * record where this project has it (`published` and `dPublished` = the record's publication
 * date, which the ingest keeps and lists; `aggType`/`aggFun` = the formula's function; `aggCodes` = the columns the
 * formula names, pipe-separated; `id` = the 1-based position), then {@link EXTRA_VI_FIELDS}.
 * @param r the record
 * @param index 0-based position in the catalog
 */
export function originalViRow(r: VarRecord, index: number): Record<string, string> {
  const extra = r as unknown as Record<string, unknown>;
  const row: Record<string, string> = {};
  for (const f of ORIGINAL_VI_FIELDS) row[f] = typeof extra[f] === 'string' ? (extra[f] as string) : '';
  Object.assign(row, {
    varCode: r.varCode,
    varLabel: r.varLabel,
    varTitle: r.varTitle,
    published: r.published || 'TRUE',
    version: r.version,
    varDesc: r.varDesc,
    unit: r.unit,
    dec: String(r.dec),
    year: r.year,
    yearEnd: r.yearEnd,
    cat1: r.cat1,
    cat2: r.cat2,
    cat3: r.cat3,
    type: r.type,
    aggType: aggName(r.aggFunR),
    aggFun: aggName(r.aggFunR),
    owner: r.owner,
    sources: r.sources,
    sourceMini: r.sourceMini,
    citation: r.citation,
    dPublished: r.published,
    classColors: r.classColors,
    classBreaks: r.classBreaks,
    classLabels: r.classLabels,
    id: String(index + 1),
    aggFunR: r.aggFunR,
    aggCodes: formulaCodes(r.aggFunR).join('|'),
  });
  for (const f of EXTRA_VI_FIELDS) row[f] = String(extra[f] ?? '');
  return row;
}
