/**
 * Parser of the catalog's aggregation formulas (`aggFunR`), which are R calls in a few
 * fixed shapes. They are parsed, never evaluated.
 */
import { IndapiError } from '../errors';

/** Aggregation functions the catalog may name. */
export type AggFn = 'sum' | 'mean' | 'weighted.mean' | 'min' | 'max' | 'median' | 'dominant';

/** A parsed aggregation formula. */
export interface AggFormula {
  /** Function. */
  fn: AggFn;
  /** Code of the summarised indicator (first argument). */
  code: string;
  /** Weight indicator of `weighted.mean` (second argument). */
  weight?: string;
}

const IDENT = '[A-Za-z][A-Za-z0-9_.]*';
const RE = new RegExp(
  `^\\s*(sum|mean|weighted\\.mean|min|max|median|dominant)\\s*\\(\\s*(${IDENT})\\s*` +
    `(?:,\\s*(?:w\\s*=\\s*)?(${IDENT}(?<!^na\\.rm))\\s*)?` +
    `(?:,\\s*na\\.rm\\s*=\\s*(?:TRUE|T)\\s*)?\\)\\s*$`,
);

/**
 * Parses `sum(X, na.rm=TRUE)`, `mean(X, na.rm=TRUE)`, `weighted.mean(X, W, na.rm=TRUE)`,
 * `min(...)`, `max(...)`, `median(...)`, `dominant(X)`.
 * @throws IndapiError BAD_ARGUMENT when the text is not one of these shapes
 */
export function parseAggFun(text: string): AggFormula {
  const m = RE.exec(text);
  if (!m) throw new IndapiError('BAD_ARGUMENT', `Cannot parse the aggregation formula '${text}'.`);
  const fn = m[1] as AggFn;
  const code = m[2];
  const weight = m[3] && m[3] !== 'na.rm' ? m[3] : undefined;
  if (fn === 'weighted.mean' && !weight) throw new IndapiError('BAD_ARGUMENT', `weighted.mean needs a weight in '${text}'.`);
  if (fn !== 'weighted.mean' && weight) throw new IndapiError('BAD_ARGUMENT', `Unexpected second argument in '${text}'.`);
  return weight ? { fn, code, weight } : { fn, code };
}
