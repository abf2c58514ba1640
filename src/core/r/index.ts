/**
 * The R vocabulary of the service, the base room of the core that every other room may import:
 * the catalog's aggregation formulas (`aggFunR`, parsed and evaluated without eval: ./expr.ts)
 * and R's number formatting and `cut()` interval labels (./labels.ts).
 */
export * from './expr';
export * from './labels';
