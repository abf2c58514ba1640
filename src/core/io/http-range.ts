/**
 * HTTP `Range` request headers (RFC 9110 section 14.1.2), one parser for every server of
 * the bundle: the Node static server (src/node/static.ts) and the service worker answering
 * from Cache Storage (workers/sw-data.ts).
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

/** The `Content-Range` value of a 206 answer: `bytes start-end/size`. */
export function contentRange(start: number, end: number, size: number): string {
  return `bytes ${start}-${end}/${size}`;
}
