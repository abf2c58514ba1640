/**
 * The Table builder's year domain, a row or column that is not a catalog code (own module so
 * that the link check, src/app/useLinkCodes.ts, knows it without loading the pivot code).
 */

/** The row or column "Year" of the Table builder over a series (`tr=year` / `tc=year` in the link). */
export const YEAR_DOMAIN = 'year';
