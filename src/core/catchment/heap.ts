/**
 * A 4-ary min-heap of (key, cell index) pairs in typed arrays, for the travel-time Dijkstra.
 *
 * Written for the engine core rather than taken from npm (flatqueue and tinyqueue hold keys in
 * plain JavaScript arrays): the keys are Float64Array and the values Int32Array, grown by
 * doubling, so a run over the 816,480 cells of the bundle grid allocates a handful of buffers
 * and no object per push. Decrease-key is replaced by pushing again (lazy deletion): the
 * caller skips a popped cell that is already settled.
 */
export class CellHeap {
  private keys: Float64Array;
  private vals: Int32Array;
  private n = 0;

  /** @param capacity initial number of entries (grows as needed) */
  constructor(capacity = 1024) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.vals = new Int32Array(Math.max(16, capacity));
  }

  /** Number of entries. */
  get size(): number {
    return this.n;
  }

  /** Removes every entry (keeps the buffers). */
  clear(): void {
    this.n = 0;
  }

  /** Adds `cell` with priority `key` (minutes). */
  push(key: number, cell: number): void {
    if (this.n === this.keys.length) {
      const k = new Float64Array(this.n * 2); k.set(this.keys); this.keys = k;
      const v = new Int32Array(this.n * 2); v.set(this.vals); this.vals = v;
    }
    const keys = this.keys, vals = this.vals;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 2;
      if (keys[p] <= key) break;
      keys[i] = keys[p]; vals[i] = vals[p];
      i = p;
    }
    keys[i] = key; vals[i] = cell;
  }

  /** Smallest key (Infinity when empty). */
  peekKey(): number {
    return this.n ? this.keys[0] : Infinity;
  }

  /** Removes the entry with the smallest key and returns its cell (-1 when empty). */
  pop(): number {
    if (!this.n) return -1;
    const keys = this.keys, vals = this.vals;
    const top = vals[0];
    const n = --this.n;
    if (n > 0) {
      const key = keys[n], val = vals[n];
      let i = 0;
      // 4-ary: the smallest of up to four children moves up
      for (;;) {
        const c0 = 4 * i + 1;
        if (c0 >= n) break;
        let c = c0, ck = keys[c0];
        const end = Math.min(c0 + 4, n);
        for (let k = c0 + 1; k < end; k++) if (keys[k] < ck) { c = k; ck = keys[k]; }
        if (ck >= key) break;
        keys[i] = ck; vals[i] = vals[c];
        i = c;
      }
      keys[i] = key; vals[i] = val;
    }
    return top;
  }
}

/**
 * A 4-ary min-heap of cells keyed by minutes with decrease-key: each cell is in the heap at
 * most once, its slot kept in `pos` (a per-grid Int32Array, -1 for cells not in the heap,
 * shared between runs and left all -1 by {@link IndexedCellHeap.clear}). Dijkstra then pops
 * each cell once and never skips stale entries, and the heap holds only the frontier.
 */
export class IndexedCellHeap {
  private keys: Float64Array;
  private cells: Int32Array;
  private n = 0;

  /**
   * @param pos slot of each cell of the grid (all -1 on entry; -1 again for every cell popped or cleared)
   * @param capacity initial number of slots (grows as needed)
   */
  constructor(private readonly pos: Int32Array, capacity = 1024) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.cells = new Int32Array(Math.max(16, capacity));
  }

  /** Number of cells in the heap. */
  get size(): number {
    return this.n;
  }

  /** Smallest key (Infinity when empty). */
  peekKey(): number {
    return this.n ? this.keys[0] : Infinity;
  }

  /** Puts `cell` in the heap with `key`, or lowers its key (the caller only ever lowers it). */
  set(cell: number, key: number): void {
    let i = this.pos[cell];
    if (i < 0) {
      if (this.n === this.keys.length) this.grow();
      i = this.n++;
    }
    const keys = this.keys, cells = this.cells, pos = this.pos;
    while (i > 0) {
      const p = (i - 1) >> 2;
      const pk = keys[p];
      if (pk <= key) break;
      keys[i] = pk;
      const pc = cells[p];
      cells[i] = pc; pos[pc] = i;
      i = p;
    }
    keys[i] = key; cells[i] = cell; pos[cell] = i;
  }

  /** Removes the cell with the smallest key and returns it (-1 when empty). */
  pop(): number {
    if (!this.n) return -1;
    const keys = this.keys, cells = this.cells, pos = this.pos;
    const top = cells[0];
    pos[top] = -1;
    const n = --this.n;
    if (n === 0) return top;
    const key = keys[n], cell = cells[n];
    let i = 0;
    for (;;) {
      const c0 = 4 * i + 1;
      if (c0 >= n) break;
      let c = c0, ck = keys[c0];
      const end = c0 + 4 < n ? c0 + 4 : n;
      for (let k = c0 + 1; k < end; k++) if (keys[k] < ck) { c = k; ck = keys[k]; }
      if (ck >= key) break;
      keys[i] = ck;
      const cc = cells[c];
      cells[i] = cc; pos[cc] = i;
      i = c;
    }
    keys[i] = key; cells[i] = cell; pos[cell] = i;
    return top;
  }

  /** Empties the heap, setting `pos` back to -1 for the cells left in it (and calling `each` with each). */
  clear(each?: (cell: number) => void): void {
    for (let k = 0; k < this.n; k++) { this.pos[this.cells[k]] = -1; each?.(this.cells[k]); }
    this.n = 0;
  }

  private grow(): void {
    const k = new Float64Array(this.n * 2); k.set(this.keys); this.keys = k;
    const c = new Int32Array(this.n * 2); c.set(this.cells); this.cells = c;
  }
}
