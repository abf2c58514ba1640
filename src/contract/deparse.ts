/**
 * R's `deparse()` of argument values for calls and messages: the one implementation is in
 * `src/core/r/deparse.ts` (core messages show values with it too); re-exported here for the
 * contract.
 */
export * from '../core/r/deparse';
