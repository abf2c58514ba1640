/**
 * One layer column of a table ingest (./index.ts) as the read pass counts it and the column
 * decisions settle it, and the spill block size shared by the read pass and the layer writer.
 */
import type { ColumnPlan } from '../../core/ingest/plan';
import type { ClassRule } from '../../core/ingest/classes';
import type { ClassEntry } from '../../core/types';
import type { TableCell } from './table-source';
import type { DecimalTracker } from '../../core/ingest/decimals';

/** Rows per spill block. */
export const BLOCK_ROWS = 8192;

/** One layer column during the read pass. */
export interface Layer {
  plan: ColumnPlan;
  /** Position among the layers (column in the spill blocks). */
  j: number;
  numN: number;
  textN: number;
  firstText: number;
  firstNum: number;
  firstBad: number;
  dict?: Map<string, number>;
  keys?: string[];
  present?: Set<number>;
  maxValue: number;
  /** Continuous layers: the decimals and range of the values (their storage type). */
  dec?: DecimalTracker;
  // decided after the read pass
  classes?: { table: ClassEntry[]; extras: string[]; remap?: Int32Array };
  sampleType?: 'Float32' | 'Float64' | 'Int16' | 'Int32' | 'Byte' | 'UInt16';
  /** Scaled integer layers (Int16/Int32 continuous): the decimals k, stored n = value * 10^k. */
  decimals?: number;
  /** How class values were matched to the record (README). */
  rule?: ClassRule;
  noData?: number;
}

/**
 * The value of one non-key layer cell for the spill block, counting it on the layer: a number;
 * a text class as its dictionary id (1-based, first appearance); NaN for a missing value or
 * text in a column without a dictionary (reported after the read pass from the counts).
 * @param l the layer (counters, dictionary, class values present; changed)
 * @param v the cell (text, or a number from a binary table; NaN / '' / 'NA' missing)
 * @param rn 1-based data row (for the first-row counters)
 */
export function layerValue(l: Layer, v: TableCell | undefined, rn: number): number {
  if (v === undefined || (typeof v === 'number' ? v !== v : v === '' || v === 'NA')) return NaN;
  let x = +v;
  if (typeof v === 'string' && (x !== x || v.trim() === '')) {
    if (l.textN++ === 0) l.firstText = rn;
    if (l.dict) {
      let id = l.dict.get(v);
      if (id === undefined) {
        l.keys!.push(v);
        id = l.keys!.length;
        l.dict.set(v, id);
      }
      x = id;
    } else x = NaN;
  } else {
    if (l.numN++ === 0) l.firstNum = rn;
    l.dec?.add(x);
    if (l.present) {
      if (x % 1 !== 0 || x < 0 || x > 65534) {
        if (!l.firstBad) l.firstBad = rn;
      } else {
        l.present.add(x);
        if (x > l.maxValue) l.maxValue = x;
      }
    }
  }
  return x;
}
