/**
 * Byte ranges read by a worker that the service worker did not see (issue 17, offline from
 * the first visit): an engine worker started before the service worker controlled the page
 * reads COG ranges straight from the network, so they are not in the service worker's block
 * cache. The worker records them ({@link RangeLog}, wrapping its fetch); once the page is
 * controlled, the page reads them again through the service worker ({@link storeRanges}),
 * which caches their blocks, so what was summarised on the first visit works offline after it.
 */

/** A byte range of one URL: [url, first byte, last byte] (inclusive, as in `Range: bytes=a-b`). */
export type ReadRange = [url: string, start: number, end: number];

/** Parses `bytes=a-b` (one closed range; anything else: undefined). */
function closedRange(h: string | null): [number, number] | undefined {
  const m = /^bytes=(\d+)-(\d+)$/.exec((h ?? '').trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Merges overlapping or touching ranges of the same URL; output sorted by URL then start. */
export function mergeRanges(ranges: ReadRange[]): ReadRange[] {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const out: ReadRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && last[0] === r[0] && r[1] <= last[2] + 1) last[2] = Math.max(last[2], r[2]);
    else out.push([r[0], r[1], r[2]]);
  }
  return out;
}

/** Records the closed `Range` requests (successful, 206) a fetch makes to URLs that `want` accepts. */
export class RangeLog {
  private ranges: ReadRange[] = [];
  constructor(private readonly want: (url: string) => boolean = () => true) {}

  /** Wraps a fetch so its range reads are recorded. */
  wrap(inner: typeof fetch): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await inner(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const r = closedRange(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('range'));
      if (r && res.status === 206 && this.want(url)) this.ranges.push([url, r[0], r[1]]);
      return res;
    }) as typeof fetch;
  }

  /** The ranges recorded so far, merged. */
  take(): ReadRange[] {
    this.ranges = mergeRanges(this.ranges);
    return this.ranges.map((r) => [...r] as ReadRange);
  }
}

/**
 * Reads each range with a `Range` request from the page (through the service worker that now
 * controls it, which caches the blocks), `concurrency` at a time; failures are skipped (the
 * range is then fetched again when next used). @returns how many ranges were read
 */
export async function storeRanges(ranges: ReadRange[], signal?: AbortSignal, concurrency = 4, doFetch: typeof fetch = (...a) => fetch(...a)): Promise<number> {
  let next = 0, ok = 0;
  const run = async () => {
    while (next < ranges.length && !signal?.aborted) {
      const [url, start, end] = ranges[next++];
      try {
        const r = await doFetch(url, { headers: { Range: `bytes=${start}-${end}` }, signal });
        await r.arrayBuffer();
        if (r.ok) ok++;
      } catch { /* offline or aborted: read again on use */ }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ranges.length) }, run));
  return ok;
}
