/**
 * Text decoding of ingest inputs: UTF-8, or Latin-1 (ISO 8859-1) when the bytes are not valid
 * UTF-8 (issue 9: "Côte d'Ivoire, São Tomé must come out right" either way). Chunked, so a
 * multi-GB table is never held whole: a UTF-8 sequence split across chunks is carried over.
 * Validity is checked with Node's native `buffer.isUtf8`.
 */
import { isUtf8 } from 'node:buffer';

/** A chunked UTF-8 / Latin-1 decoder. */
export class InputDecoder {
  /** "utf8" until the first invalid UTF-8 byte, then "latin1" for the rest of the input. */
  mode: 'utf8' | 'latin1' = 'utf8';
  /** True once a valid non-ASCII UTF-8 sequence was decoded. */
  sawUtf8 = false;
  /** Byte offset where Latin-1 was detected (-1: not detected). */
  switchedAt = -1;
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;

  /**
   * Decodes the next chunk.
   * @returns the text
   * @throws Error "mixed encodings" when invalid UTF-8 follows valid non-ASCII UTF-8
   */
  write(chunk: Buffer): string {
    const start = this.offset;
    this.offset += chunk.length;
    if (this.mode === 'latin1') {
      this.checkLatin1(chunk, start);
      return chunk.toString('latin1');
    }
    const bufStart = start - this.carry.length;
    let buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    // Keep an incomplete trailing UTF-8 sequence for the next chunk.
    let cut = buf.length;
    for (let k = 1; k <= 3 && k <= buf.length; k++) {
      const b = buf[buf.length - k];
      if ((b & 0xc0) === 0x80) continue; // continuation byte: look further back
      if (b >= 0xc0) {
        const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (need > k) cut = buf.length - k;
      }
      break;
    }
    this.carry = Buffer.from(buf.subarray(cut));
    buf = buf.subarray(0, cut);
    if (isUtf8(buf)) {
      if (!this.sawUtf8) for (let i = 0; i < buf.length; i++) if (buf[i] >= 0x80) { this.sawUtf8 = true; break; }
      return buf.toString('utf8');
    }
    const bad = firstInvalidUtf8(buf);
    let before = this.sawUtf8;
    for (let i = 0; i < bad && !before; i++) if (buf[i] >= 0x80) before = true;
    if (before) throw new Error(`mixed encodings: invalid UTF-8 at byte ${bufStart + bad} after valid non-ASCII UTF-8 text`);
    this.mode = 'latin1';
    this.switchedAt = bufStart + bad;
    const all = this.carry.length ? Buffer.concat([buf, this.carry]) : buf;
    this.carry = Buffer.alloc(0);
    this.checkLatin1(all.subarray(bad + 1), bufStart + bad + 1);
    return all.toString('latin1');
  }

  /** The last bytes of the Latin-1 input so far (a UTF-8 sequence split between chunks). */
  private tail: Buffer = Buffer.alloc(0);

  /**
   * After the switch to Latin-1, valid multi-byte UTF-8 sequences mean the input mixes
   * encodings (issue 25 item 4: "C\xf4te" early and "C\xc3\xb4te" later would give two names).
   * @throws Error "mixed encodings"
   */
  private checkLatin1(chunk: Buffer, start: number): void {
    const b = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    const at = firstUtf8Sequence(b);
    if (at >= 0) throw new Error(`mixed encodings: valid UTF-8 text at byte ${start - this.tail.length + at} after Latin-1 text (from byte ${this.switchedAt})`);
    this.tail = Buffer.from(b.subarray(Math.max(0, b.length - 3)));
  }

  /** Flushes a carried incomplete sequence (decoded as Latin-1 when it is not valid UTF-8). */
  end(): string {
    const c = this.carry;
    this.carry = Buffer.alloc(0);
    if (!c.length) return '';
    if (this.mode === 'latin1') this.checkLatin1(c, this.offset - c.length);
    if (this.mode === 'utf8' && isUtf8(c)) return c.toString('utf8');
    if (this.sawUtf8) throw new Error('mixed encodings: the input ends with an incomplete UTF-8 sequence');
    this.mode = 'latin1';
    return c.toString('latin1');
  }
}

/**
 * Decodes a whole small file (the catalog) as UTF-8 or, when invalid, Latin-1; strips a BOM.
 * @returns text and the encoding used
 */
export function decodeWhole(buf: Buffer): { text: string; encoding: 'utf8' | 'latin1' } {
  const utf = isUtf8(buf);
  const text = utf ? buf.toString('utf8') : buf.toString('latin1');
  return { text: text.replace(/^\uFEFF/, ''), encoding: utf ? 'utf8' : 'latin1' };
}

/**
 * Offset of the first byte that does not start a valid UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, at most U+10FFFF), or the length when all is valid.
 */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) { n = 1; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { n = 2; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 3; min = 0x10000; }
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (x & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (x & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return i;
}

/**
 * Offset of the first valid multi-byte UTF-8 sequence (RFC 3629, as {@link firstInvalidUtf8}
 * checks them), or -1. In Latin-1 text such a pair (`\xc3\xb4`, "Ã´") is almost never meant.
 */
export function firstUtf8Sequence(b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c < 0xc2 || c > 0xf4) continue;
    const n = c <= 0xdf ? 2 : c <= 0xef ? 3 : 4;
    if (i + n <= b.length && firstInvalidUtf8(b.subarray(i, i + n)) === n) return i;
  }
  return -1;
}

/**
 * Whether bytes are UTF-16 text: a byte-order mark (FF FE, FE FF), or a NUL in every second
 * byte of the first ASCII characters (UTF-16 without BOM, as Excel's "Unicode text" writes).
 * @param b the first bytes of a file (64 are enough)
 * @returns "UTF-16LE" / "UTF-16BE", or null
 */
export function utf16Of(b: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | null {
  if (b[0] === 0xff && b[1] === 0xfe) return 'UTF-16LE';
  if (b[0] === 0xfe && b[1] === 0xff) return 'UTF-16BE';
  const n = Math.min(b.length, 64) & ~1;
  if (n < 8) return null;
  let le = 0, be = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] !== 0 && b[i + 1] === 0) le++;
    if (b[i] === 0 && b[i + 1] !== 0) be++;
  }
  if (le === n / 2) return 'UTF-16LE';
  if (be === n / 2) return 'UTF-16BE';
  return null;
}
