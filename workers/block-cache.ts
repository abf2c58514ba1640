/**
 * The on-demand cache of COG byte ranges used by the service worker: files are cut into
 * fixed blocks of {@link BLOCK_SIZE} bytes keyed by (file sha256, block index), so a range
 * request is answered from the cache when the cached blocks cover it, the missing blocks
 * are fetched with one range request per contiguous run, and blocks are evicted least
 * recently used when their total passes a byte budget.
 *
 * Pure module: the block bodies go to an injected {@link BlockStore} (Cache Storage in the
 * service worker, a Map in tests) and the LRU index to an injected {@link IndexStore}
 * (idb-keyval in the service worker). Keys include the file's sha256, so a bundle update
 * invalidates only the files whose content changed ({@link BlockCache.retain}).
 *
 * Why not workbox-expiration: it bounds a cache by entry count and age, not bytes; it
 * writes one IndexedDB record per use; and it cannot report bytes per file for the storage
 * panel. Why not workbox-range-requests alone: it slices a cached WHOLE response, while
 * this cache holds parts of files.
 */
import { parseContentRange } from '../src/core/io/http-range';

/** Block size in bytes (64 KiB): a COG tile of this bundle (256 x 256 cells, deflated) spans 1-3 blocks. */
export const BLOCK_SIZE = 64 * 1024;

/** Default budget of the block cache in bytes (200 MiB). */
export const DEFAULT_BUDGET_BYTES = 200 * 1024 * 1024;

/** A file of the bundle as listed in its manifest. */
export interface FileRef {
  /** Path relative to the bundle root, e.g. `cog/ELEVATION.tif`. */
  path: string;
  /** Lower-case hex SHA-256 of the whole file (from the manifest). */
  sha256: string;
  /** File size in bytes. */
  bytes: number;
}

/** Storage of block bodies. `put` may throw a DOMException named `QuotaExceededError`. */
export interface BlockStore {
  get(key: string): Promise<ArrayBuffer | undefined>;
  put(key: string, data: ArrayBuffer): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every stored key (used once at start to drop blocks the index does not know). */
  keys?(): Promise<string[]>;
}

/** One entry of the persisted LRU index: [key, path, bytes, last use (ms since epoch)]. */
export type IndexEntry = [key: string, path: string, bytes: number, used: number];

/** Persistence of the LRU index, oldest entry first. */
export interface IndexStore {
  load(): Promise<IndexEntry[] | undefined>;
  save(entries: IndexEntry[]): Promise<void>;
}

/** Bytes kept per file, for the storage panel. */
export interface FileUsage {
  path: string;
  sha256: string;
  /** Bytes of the cached blocks. */
  bytes: number;
  /** Number of cached blocks. */
  blocks: number;
  /** Last use, ms since epoch. */
  used: number;
}

/** Reads bytes `start..end` (inclusive) of a file from the network. */
export type RangeFetcher = (file: FileRef, start: number, end: number, signal?: AbortSignal) => Promise<ArrayBuffer>;

/** Options of {@link BlockCache}. */
export interface BlockCacheOptions {
  store: BlockStore;
  index?: IndexStore;
  /** Budget in bytes (default {@link DEFAULT_BUDGET_BYTES}). */
  budgetBytes?: number;
  /** Block size in bytes (default {@link BLOCK_SIZE}). */
  blockSize?: number;
  fetchRange: RangeFetcher;
  /** Clock, ms (default Date.now). */
  now?: () => number;
  /** Called when a block could not be stored even after evicting (storage full). */
  onQuota?: (error: unknown) => void;
}

/** Key of block `index` of the file with `sha256`. */
export function blockKey(sha256: string, index: number): string {
  return `${sha256}/${index}`;
}

/** First and last block index covering bytes `start..end` (inclusive). */
export function blockSpan(start: number, end: number, blockSize = BLOCK_SIZE): [number, number] {
  return [Math.floor(start / blockSize), Math.floor(end / blockSize)];
}

/** True when `e` is a storage quota failure (DOMException `QuotaExceededError`, or Firefox's old name). */
export function isQuotaError(e: unknown): boolean {
  const n = (e as { name?: string } | null)?.name;
  return n === 'QuotaExceededError' || n === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/** Why a range answer from the network is unusable; thrown by {@link checkRangeResponse}. */
export class RangeResponseError extends Error {
  /** `NO_RANGES`: the host answered 200 (whole file); `SIZE`: the file's size differs from the manifest; `HTTP`: an error status. */
  constructor(readonly kind: 'NO_RANGES' | 'SIZE' | 'HTTP', message: string, readonly status?: number) {
    super(message);
    this.name = 'RangeResponseError';
  }
}

/**
 * Checks a network answer to `Range: bytes=start-end` for `file` (RFC 9110 section 14.4):
 * it must be 206 with `Content-Range: bytes start-end/<manifest size>` (the end may be cut
 * at the file's end). A 200 means the host ignores ranges.
 * @throws RangeResponseError
 */
export function checkRangeResponse(status: number, contentRange: string | null, file: FileRef, start: number, end: number): void {
  if (status === 200) {
    throw new RangeResponseError('NO_RANGES', `The data host answered a range request for ${file.path} with the whole file (HTTP 200): it must serve byte ranges (Accept-Ranges: bytes).`, status);
  }
  if (status !== 206) throw new RangeResponseError('HTTP', `Cannot read ${file.path}: HTTP ${status}.`, status);
  const r = parseContentRange(contentRange);
  if (!r) throw new RangeResponseError('NO_RANGES', `The data host answered a range request for ${file.path} without a readable Content-Range header (with CORS, it must be listed in Access-Control-Expose-Headers).`, status);
  if (r.start !== start || r.end !== Math.min(end, file.bytes - 1) || r.size !== file.bytes) {
    throw new RangeResponseError('SIZE', `${file.path} on the data host does not match the bundle manifest (got bytes ${r.start}-${r.end}/${Number.isNaN(r.size) ? '*' : r.size}, expected ${start}-${Math.min(end, file.bytes - 1)}/${file.bytes}): the bundle is partial or being replaced.`, status);
  }
}

interface Entry {
  path: string;
  bytes: number;
  used: number;
}

/** The block cache with its LRU index (see the module comment). */
export class BlockCache {
  private readonly store: BlockStore;
  private readonly indexStore?: IndexStore;
  private readonly blockSize: number;
  private readonly fetchRange: RangeFetcher;
  private readonly now: () => number;
  private readonly onQuota: (e: unknown) => void;
  /** Key -> entry, in LRU order (first = least recently used). */
  private readonly lru = new Map<string, Entry>();
  private total = 0;
  private budget: number;
  private ready: Promise<void> | null = null;
  /** True after evicting did not make room for a block: store nothing more until space is freed. */
  private full = false;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(o: BlockCacheOptions) {
    this.store = o.store;
    this.indexStore = o.index;
    this.blockSize = o.blockSize ?? BLOCK_SIZE;
    this.budget = o.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.fetchRange = o.fetchRange;
    this.now = o.now ?? Date.now;
    this.onQuota = o.onQuota ?? (() => {});
  }

  /** Loads the persisted index once and drops stored blocks it does not list. */
  init(): Promise<void> {
    return (this.ready ??= (async () => {
      const entries = (await this.indexStore?.load().catch(() => undefined)) ?? [];
      for (const [key, path, bytes, used] of entries) {
        this.lru.set(key, { path, bytes, used });
        this.total += bytes;
      }
      if (this.store.keys) {
        for (const k of await this.store.keys()) if (!this.lru.has(k)) await this.store.delete(k);
      }
    })());
  }

  /** Bytes of all cached blocks. */
  get bytes(): number {
    return this.total;
  }

  /** The budget in bytes. */
  get budgetBytes(): number {
    return this.budget;
  }

  /** Sets the budget (bytes) and evicts down to it. */
  async setBudget(bytes: number): Promise<void> {
    await this.init();
    this.full = false;
    this.budget = Math.max(0, bytes);
    await this.evictTo(this.budget);
  }

  private touch(key: string, e: Entry): void {
    this.lru.delete(key);
    e.used = this.now();
    this.lru.set(key, e);
  }

  private saveSoon(): void {
    if (!this.indexStore || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.flush();
    }, 500);
  }

  /** Writes the index now. */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    await this.indexStore?.save([...this.lru].map(([k, e]) => [k, e.path, e.bytes, e.used] as IndexEntry)).catch(() => undefined);
  }

  private async drop(key: string): Promise<void> {
    const e = this.lru.get(key);
    if (!e) return;
    this.lru.delete(key);
    this.total -= e.bytes;
    await this.store.delete(key).catch(() => undefined);
  }

  private async evictTo(limit: number): Promise<void> {
    for (const k of [...this.lru.keys()]) {
      if (this.total <= limit) break;
      await this.drop(k);
    }
    this.saveSoon();
  }

  /**
   * Stores a block. On a full quota it evicts the least recently used blocks worth this block
   * (LRU replacement) and retries once; when that fails too, the failure is reported once and
   * later blocks are not stored and evict nothing (what is cached stays) until space is freed
   * (a budget change, a file evicted, a clear) or a store succeeds.
   */
  private async putBlock(key: string, path: string, data: ArrayBuffer): Promise<void> {
    if (data.byteLength > this.budget) return;
    await this.evictTo(this.budget - data.byteLength);
    try {
      await this.store.put(key, data);
    } catch (e) {
      if (!isQuotaError(e)) throw e;
      if (this.full) return;
      await this.evictTo(this.total - data.byteLength);
      try {
        await this.store.put(key, data);
      } catch (e2) {
        if (!isQuotaError(e2)) throw e2;
        this.full = true;
        this.onQuota(e2);
        return;
      }
    }
    this.full = false;
    const old = this.lru.get(key);
    if (old) this.total -= old.bytes;
    this.lru.set(key, { path, bytes: data.byteLength, used: this.now() });
    this.total += data.byteLength;
    this.saveSoon();
  }

  /** True when every block covering bytes `start..end` of `file` is cached. */
  async covers(file: FileRef, start: number, end: number): Promise<boolean> {
    await this.init();
    const [a, b] = blockSpan(start, Math.min(end, file.bytes - 1), this.blockSize);
    for (let i = a; i <= b; i++) if (!this.lru.has(blockKey(file.sha256, i))) return false;
    return true;
  }

  /**
   * Bytes `start..end` (inclusive, cut at the file's end) of `file`: cached blocks from the
   * store, missing runs of blocks from the network (then stored, LRU-evicting to the budget).
   * @returns the bytes, and whether everything came from the cache
   * @throws whatever `fetchRange` throws when a block is missing (e.g. offline)
   */
  async read(file: FileRef, start: number, end: number, signal?: AbortSignal): Promise<{ data: Uint8Array; hit: boolean }> {
    await this.init();
    const last = Math.min(end, file.bytes - 1);
    const bs = this.blockSize;
    const [a, b] = blockSpan(start, last, bs);
    const blocks: Array<Uint8Array | undefined> = [];
    for (let i = a; i <= b; i++) {
      const key = blockKey(file.sha256, i);
      const e = this.lru.get(key);
      let got: ArrayBuffer | undefined;
      if (e) {
        got = await this.store.get(key).catch(() => undefined);
        const want = Math.min(bs, file.bytes - i * bs);
        if (got && got.byteLength === want) this.touch(key, e);
        else {
          got = undefined;
          await this.drop(key);
        }
      }
      blocks.push(got ? new Uint8Array(got) : undefined);
    }
    const hit = blocks.every(Boolean);
    // Missing blocks: one request per contiguous run.
    for (let i = 0; i < blocks.length; ) {
      if (blocks[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < blocks.length && !blocks[j + 1]) j++;
      const runStart = (a + i) * bs;
      const runEnd = Math.min((a + j + 1) * bs, file.bytes) - 1;
      const buf = new Uint8Array(await this.fetchRange(file, runStart, runEnd, signal));
      if (buf.byteLength !== runEnd - runStart + 1) throw new RangeResponseError('SIZE', `Short read of ${file.path}: ${buf.byteLength} bytes for ${runEnd - runStart + 1}.`);
      for (let k = i; k <= j; k++) {
        const off = (k - i) * bs;
        const part = buf.slice(off, Math.min(off + bs, buf.byteLength));
        blocks[k] = part;
        await this.putBlock(blockKey(file.sha256, a + k), file.path, part.buffer);
      }
      i = j + 1;
    }
    this.saveSoon();
    const out = new Uint8Array(last - start + 1);
    for (let k = 0; k < blocks.length; k++) {
      const blockStart = (a + k) * bs;
      const blk = blocks[k]!;
      const from = Math.max(start, blockStart);
      const to = Math.min(last, blockStart + blk.byteLength - 1);
      if (to >= from) out.set(blk.subarray(from - blockStart, to - blockStart + 1), from - start);
    }
    return { data: out, hit };
  }

  /** Bytes kept per file (most recently used first). */
  async usage(): Promise<FileUsage[]> {
    await this.init();
    const by = new Map<string, FileUsage>();
    for (const [k, e] of this.lru) {
      const sha = k.slice(0, k.indexOf('/'));
      const u = by.get(sha) ?? { path: e.path, sha256: sha, bytes: 0, blocks: 0, used: 0 };
      u.bytes += e.bytes;
      u.blocks++;
      u.used = Math.max(u.used, e.used);
      by.set(sha, u);
    }
    return [...by.values()].sort((x, y) => y.used - x.used);
  }

  /** Drops every block of the file with `sha256`. @returns bytes freed */
  async evictFile(sha256: string): Promise<number> {
    await this.init();
    const before = this.total;
    this.full = false;
    for (const k of [...this.lru.keys()]) if (k.startsWith(sha256 + '/')) await this.drop(k);
    await this.flush();
    return before - this.total;
  }

  /** Drops every block of files whose sha256 is not in `keep` (after a bundle update). @returns bytes freed */
  async retain(keep: Set<string>): Promise<number> {
    await this.init();
    const before = this.total;
    this.full = false;
    for (const k of [...this.lru.keys()]) if (!keep.has(k.slice(0, k.indexOf('/')))) await this.drop(k);
    if (before !== this.total) await this.flush();
    return before - this.total;
  }

  /** Drops everything. @returns bytes freed */
  async clear(): Promise<number> {
    return this.retain(new Set());
  }
}
