/**
 * Arguments as they cross between threads (the pool's body parsing): a long vector of plain
 * numbers travels as a Float64Array, which structured clone copies in one block (a JS array
 * of 1.2 M numbers took about a second to clone into the thread answering requests).
 */
import type { RawArgs } from '../contract/args';
import type { RValue } from '../contract/rliteral';

/** A value with its long numeric vectors as `{ f64 }` blocks. */
export type PackedValue = RValue | { f64: Float64Array } | PackedValue[] | { [k: string]: PackedValue };

/** Arguments in request order with packed values. */
export type PackedArgs = Array<[string, PackedValue]>;

/** Shortest vector packed: 1,024 numbers (shorter ones clone fast as they are). */
const MIN_PACKED = 1024;

/** Marks a packed block apart from an argument's own named list. */
const BLOCK = '\u0000f64';

function pack(v: RValue): PackedValue {
  if (Array.isArray(v)) {
    if (v.length >= MIN_PACKED && v.every((x) => typeof x === 'number')) return { [BLOCK]: Float64Array.from(v as number[]) } as unknown as PackedValue;
    return v.map(pack);
  }
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, pack(x)]));
  return v;
}

function unpack(v: PackedValue): RValue {
  if (Array.isArray(v)) return v.map(unpack);
  if (v !== null && typeof v === 'object') {
    const block = (v as Record<string, unknown>)[BLOCK];
    if (block instanceof Float64Array) return Array.from(block);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unpack(x as PackedValue)]));
  }
  return v as RValue;
}

/** Packs arguments for the trip to another thread ({@link unpackArgs} undoes it). */
export function packArgs(raw: RawArgs): PackedArgs {
  return raw.map(([k, v]) => [k, pack(v)]);
}

/** The arguments {@link packArgs} packed: the same values (numbers, order and names kept). */
export function unpackArgs(packed: PackedArgs): RawArgs {
  return packed.map(([k, v]) => [k, unpack(v)]);
}
