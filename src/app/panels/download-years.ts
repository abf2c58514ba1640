/**
 * Which download formats a query over years can take. The formats that map cells (json, tif,
 * asc, grd, plot, hist: input `cells` in the format registry) read one year's layer, so the
 * engine refuses them for several years or a change ('year': this output takes one year); the
 * Download panel shows them disabled with this reason instead of offering a build that fails.
 */
import type { FormatSpec } from '../../core/formats/registry';

/**
 * Why the cell formats cannot be built for these arguments, or null when they can.
 * @param args the query's arguments by R name (`year`: a number or an array of years; `change`: "diff" or "pct")
 * @returns a phrase such as "18 years" or "a change between 2 years"
 */
export function cellFormatsBlocked(args: { year?: unknown; change?: unknown }): string | null {
  const y = args.year;
  const years = Array.isArray(y) ? new Set(y).size : y === undefined || y === null ? 0 : 1;
  if (args.change !== undefined && args.change !== null) return `a change between ${years} years`;
  return years > 1 ? `${years} years` : null;
}

/** True when `spec` maps cells (and so takes one year). */
export function mapsCells(spec: Pick<FormatSpec, 'input'>): boolean {
  return spec.input.includes('cells');
}
