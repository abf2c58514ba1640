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
