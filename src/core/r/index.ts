/**
 * The R vocabulary of the service, the base room of the core that every other room may import:
 * the catalog's aggregation formulas (`aggFunR`, parsed and evaluated without eval: ./expr.ts)
 * and R's number formatting and `cut()` interval labels (./labels.ts). The rules of `cut()` break
 * lists (./breaks.ts: `minutes`, `by` intervals) are imported from their own module.
 */
export * from './expr';
export * from './labels';
