/**
 * Per-group lists of selected cells in compressed sparse row form (CSR): the one builder used by
 * the formula accumulators (accumulate.ts) and the zonal operations (zonal.ts). A leaf of the
 * engine room: it imports nothing.
 */

/** Cells of each group: the cells of group g are `idx[off[g]] .. idx[off[g + 1] - 1]`, in cell order. */
export interface GroupLists {
  /** Offsets into `idx`, G + 1 entries. */
  off: Int32Array;
  /** Cell positions (indices into the frame's `sel`), grouped. */
  idx: Int32Array;
}

/**
 * Builds the per-group cell lists of a frame in two passes (counting sort).
 * @param sel group index of each cell of the frame (-1: the cell is in no group)
 * @param G number of groups (every `sel` value is below it)
 */
export function groupLists(sel: ArrayLike<number>, G: number): GroupLists {
  const N = sel.length;
  const off = new Int32Array(G + 1);
  for (let i = 0; i < N; i++) { const g = sel[i]; if (g >= 0) off[g + 1]++; }
  for (let g = 0; g < G; g++) off[g + 1] += off[g];
  const pos = off.slice(0, G);
  const idx = new Int32Array(off[G]);
  for (let i = 0; i < N; i++) { const g = sel[i]; if (g >= 0) idx[pos[g]++] = i; }
  return { off, idx };
}
