/**
 * Checks of the catchment's options (names, neighbours, snap_km, origin, capacity), all made
 * before any data is read: a bad value is a 400 naming the argument (and the row), and
 * nothing is computed half-way.
 */
import { IndapiError } from '../errors';
import type { CatchmentArgs, CatchmentOrigin, Neighbours } from '../api/catchment';
import { deparse, SHORT } from '../r/deparse';

/** Longest source name, characters. */
export const MAX_NAME_CHARS = 200;
/** Largest `snap_km`, km (bounds the search around each source). */
export const MAX_SNAP_KM = 100;
/** Default `snap_km`, km. */
export const DEFAULT_SNAP_KM = 10;

/** The checked options of a catchment with `n` sources. */
export interface CatchmentOptions {
  names: string[];
  marketshed: boolean;
  cumulative: boolean;
  neighbours: Neighbours;
  snapKm: number;
  origin: CatchmentOrigin;
  /** People per source, one per source (null: no coverage). */
  capacity: number[] | null;
}

const bad = (arg: string, msg: string, row?: number): never => {
  throw new IndapiError('BAD_ARGUMENT', `'${arg}'${row ? ` row ${row}` : ''}: ${msg}`, { arg, ...(row ? { row } : {}) });
};

/** Names: one per source, 1-200 characters, all different; default "source 1", ... */
function checkNames(names: unknown, n: number): string[] {
  if (names === undefined || names === null) return Array.from({ length: n }, (_, k) => `source ${k + 1}`);
  if (!Array.isArray(names)) return bad('names', 'must be a character vector, one name per source.');
  if (names.length !== n) bad('names', `gives ${names.length} names for ${n} source points; give one name per source, in the same order.`);
  const seen = new Map<string, number>();
  return names.map((x, k) => {
    if (typeof x !== 'string' || x.trim() === '') return bad('names', `must be a non-empty text, got ${x === null ? 'NA' : deparse(x, SHORT)}.`, k + 1);
    const s = x.trim();
    if (s.length > MAX_NAME_CHARS) bad('names', `is ${s.length} characters long; at most ${MAX_NAME_CHARS} are allowed.`, k + 1);
    const prev = seen.get(s);
    if (prev !== undefined) bad('names', `'${s}' is also the name of row ${prev + 1}; each source needs its own name.`, k + 1);
    seen.set(s, k);
    return s;
  });
}

/** Capacity: one number >= 0 per source, or one for all. */
function checkCapacity(capacity: unknown, n: number): number[] | null {
  if (capacity === undefined || capacity === null) return null;
  const xs = Array.isArray(capacity) ? capacity : [capacity];
  if (xs.length !== 1 && xs.length !== n) bad('capacity', `gives ${xs.length} numbers for ${n} source points; give one per source or one for all.`);
  const out = xs.map((x, k) => {
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) bad('capacity', `must be a number of people >= 0, got ${x === null ? 'NA' : deparse(x, SHORT)}.`, xs.length > 1 ? k + 1 : undefined);
    return x as number;
  });
  return out.length === 1 ? Array<number>(n).fill(out[0]) : out;
}

/**
 * Checks the options of a catchment with `n` source points.
 * @throws IndapiError BAD_ARGUMENT naming the argument (and the row of names and capacity)
 */
export function checkOptions(args: CatchmentArgs, n: number): CatchmentOptions {
  const neighbours = args.neighbours ?? 8;
  if (neighbours !== 8 && neighbours !== 16) bad('neighbours', `must be 8 or 16, got ${deparse(neighbours, SHORT)}.`);
  const snapKm = args.snapKm ?? DEFAULT_SNAP_KM;
  if (typeof snapKm !== 'number' || !(snapKm >= 0 && snapKm <= MAX_SNAP_KM)) bad('snap_km', `must be a distance in km from 0 to ${MAX_SNAP_KM}, got ${deparse(snapKm, SHORT)}.`);
  const origin = args.origin ?? 'cell';
  if (origin !== 'cell' && origin !== 'point') bad('origin', `must be "cell" or "point", got ${deparse(origin, SHORT)}.`);
  for (const k of ['marketshed', 'cumulative'] as const) if (args[k] !== undefined && typeof args[k] !== 'boolean') bad(k, 'must be TRUE or FALSE.');
  const capacity = checkCapacity(args.capacity, n);
  return {
    names: checkNames(args.names, n),
    marketshed: !!args.marketshed || capacity !== null,
    cumulative: !!args.cumulative,
    neighbours, snapKm, origin, capacity,
  };
}
