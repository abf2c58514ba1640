/**
 * File and archive names of a data package.
 *
 * Data file: `<method>-<var codes>-<by codes>-<area>.<ext>`, codes joined with `-`,
 * empty groups left out (spec 2.4: "named after the method, the var codes, the by codes
 * and the country code"), e.g. `getLayer-ELEVATION-ADM1_NAME_ALT-KEN.csv`.
 * ZIP: `<var codes>-<by codes>-<area>.<format>.zip` (spec 2.4) with the format as
 * requested (lower-cased), not its normalised form: e.g. `ELEVATION-ADM1_NAME_ALT-KEN.csv.zip`,
 * `….rda.zip` for `format = 'rda'` and `….rdata.zip` for its alias `rdata` (both hold an
 * `.rda` file). `<area>` is the `iso3` codes joined with `-`
 * (default `SSA`); `WKT` for a WKT request without `iso3`; `CELLS` for a request by cell ids.
 * A group of more than 4 codes is written as its first 3 codes and `and<N>more`, so
 * names stay short on every file system. Characters other than letters, digits, `_` and
 * `.` become `_`.
 */
import { queryValue } from '../args';

/** The codes a request names. */
export interface RequestCodes {
  /** `var` codes. */
  vars: string[];
  /** `by` codes (keys of the object form). */
  by: string[];
  /** Area part of names. */
  area: string[];
}

/**
 * Codes of a request's arguments (`var`, `by` as a list or object, `iso3` upper-cased, `wkt`,
 * `ids`): those of its query value (`queryValue` of ../args.ts, what the writers get).
 * @throws IndapiError BAD_ARGUMENT for list arguments that are not text (the engine refuses them first)
 * @param args the request arguments as the contract parsed them
 */
export function requestCodes(args: Record<string, unknown>): RequestCodes {
  const { vars, by, area } = queryValue(args);
  return { vars, by, area };
}

function group(codes: string[]): string {
  const clean = [...new Set(codes.map((c) => c.replace(/[^A-Za-z0-9_.]/g, '_')))];
  if (clean.length > 4) return `${clean.slice(0, 3).join('-')}-and${clean.length - 3}more`;
  return clean.join('-');
}

/**
 * Base name of data files without extension: `<method>-<vars>-<by>-<area>`.
 * @param method the R method name, e.g. "getLayer"
 * @param codes the request's codes
 * @param varOverride codes to use instead of all vars (one file per var for rasters)
 */
export function dataFileBase(method: string, codes: RequestCodes, varOverride?: string[]): string {
  return [method.replace(/[^A-Za-z0-9_.]/g, '_'), group(varOverride ?? codes.vars), group(codes.by), group(codes.area)].filter((s) => s.length > 0).join('-');
}

/**
 * Name of the session ZIP: `<vars>-<by>-<area>.<format>.zip`.
 * @param codes the request's codes
 * @param format the format as requested (e.g. `rda`, `geotiff`): trimmed, lower-cased,
 *   characters other than letters, digits, `_` and `.` replaced by `_`
 */
export function zipFileName(codes: RequestCodes, format: string): string {
  const f = String(format).trim().toLowerCase().replace(/[^a-z0-9_.]/g, '_');
  return `${[group(codes.vars), group(codes.by), group(codes.area)].filter((s) => s.length > 0).join('-')}.${f}.zip`;
}
