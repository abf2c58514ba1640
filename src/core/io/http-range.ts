/**
 * HTTP `Range` request headers (RFC 9110 section 14.1.2), one parser for every server of
 * the bundle: the Node static server (src/node/static.ts) and the service worker answering
 * from Cache Storage (workers/sw-data.ts); and the `Content-Range` of their answers, for the
 * readers that check them (src/core/io/fetch-source.ts, workers/block-cache.ts).
 */

/**
 * Parses a single `bytes=` range against a size in bytes.
 * @returns [start, end] inclusive; 'unsatisfiable' (answer 416 with `Content-Range: bytes *\/size`);
 *   or undefined to ignore the header and answer the whole file: several ranges, another unit,
 *   or an invalid range-spec (a last position before the first), as RFC 9110 allows
 */
export function parseRange(header: string, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [, a, b] = m;
  if (a === '' && b === '') return undefined;
  let start: number;
  let end: number;
  if (a === '') {
    const n = Number(b); // suffix: the last n bytes
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return undefined;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return [start, end];
}

/**
 * Parses the `Content-Range` of a 206 answer (RFC 9110 section 14.4): `bytes start-end/size`,
 * the size `*` when unknown.
 * @returns start and end (inclusive) and the size (NaN for `*`), or undefined when unreadable
 */
export function parseContentRange(header: string | null): { start: number; end: number; size: number } | undefined {
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header ?? '');
  return m ? { start: Number(m[1]), end: Number(m[2]), size: m[3] === '*' ? NaN : Number(m[3]) } : undefined;
}

/** The `Content-Range` value of a 206 answer: `bytes start-end/size`. */
export function contentRange(start: number, end: number, size: number): string {
  return `bytes ${start}-${end}/${size}`;
}
