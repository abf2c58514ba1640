/**
 * The registry of zonal operations (names as exactextract uses them), with their labels and
 * limits: no import, so the app's Statistics picker reads the same list as the engine
 * (`zonal.ts`, which computes them and documents every formula) without loading the engine.
 */

/** One zonal operation of the registry. */
export interface ZonalOp {
  /** Name in `stats` (exactextract's). */
  name: string;
  /** Short label for people (the app's Statistics picker). */
  label: string;
  /** Variables it applies to: continuous, class, or both. */
  of: 'numeric' | 'class' | 'any';
  /** True when it needs `weights`. */
  weighted?: boolean;
  /** True when it gives several columns (per class, per `q`) or rows (per bin) per zone rather than one value. */
  multi?: boolean;
  /** One-line definition (method docs). */
  doc: string;
}

/** The zonal operations, in documentation order. */
export const ZONAL_OPS: readonly ZonalOp[] = [
  { name: 'frac', label: 'Share of each class', of: 'class', multi: true, doc: 'share of each class of a class variable in the zone (coverage-weighted), columns `<VAR>_frac_<class>`, summing to 1' },
  { name: 'weighted_frac', label: 'Share of the weight in each class', of: 'class', multi: true, weighted: true, doc: 'share of the weight (`weights`) in each class, columns `<VAR>_weighted_frac_<class>`' },
  { name: 'weighted_mean', label: 'Weighted mean', of: 'numeric', weighted: true, doc: 'sum(f W x) / sum(f W) over cells with both x and W' },
  { name: 'weighted_sum', label: 'Weighted sum', of: 'numeric', weighted: true, doc: 'sum(f W x) over cells with both x and W' },
  { name: 'variance', label: 'Variance (population)', of: 'numeric', doc: 'population variance sum(f (x - m)^2) / sum(f) (Hmisc `wtd.var(method = "ML")`)' },
  { name: 'stdev', label: 'Standard deviation (population)', of: 'numeric', doc: 'square root of `variance` (population)' },
  { name: 'cv', label: 'Coefficient of variation', of: 'numeric', doc: 'coefficient of variation, stdev / mean' },
  { name: 'quantile', label: 'Quantiles', of: 'numeric', multi: true, doc: 'quantiles at `q` (R `quantile(type = 7)`, or coverage-weighted with `quantile_type = "weighted"`), columns `<VAR>_q<100 q>`' },
  { name: 'variety', label: 'Number of distinct values', of: 'any', doc: 'number of distinct values (classes)' },
  { name: 'valid_percent', label: 'Percent of the area with a value', of: 'any', doc: 'percent of the zone (coverage-weighted cells) with a value' },
  { name: 'nodata', label: 'Cells without a value', of: 'any', doc: 'coverage-weighted count of the zone\'s cells without a value' },
  { name: 'area_km2', label: 'Covered area (km2)', of: 'any', doc: 'covered area in km2 on the WGS84 ellipsoid (cells with or without a value)' },
  { name: 'histogram', label: 'Histogram', of: 'numeric', multi: true, doc: 'coverage-weighted counts per bin (`bins`, `range`), one row per bin' },
];

/** Names of the zonal operations. */
export const ZONAL_NAMES: readonly string[] = ZONAL_OPS.map((o) => o.name);

/** Default quantile probabilities of `quantile`. */
export const DEFAULT_Q = [0.1, 0.25, 0.5, 0.75, 0.9];
/** Default histogram bins. */
export const DEFAULT_BINS = 10;
/** Most quantile probabilities in `q`. */
export const MAX_Q = 100;
/** Most histogram bins. */
export const MAX_BINS = 1000;

