/**
 * Small byte-level helpers shared by the binary writers (Stata, RDS, TIFF, PNG, grd).
 * Pure: Uint8Array / DataView only, no Node built-ins.
 */

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/**
 * UTF-8 bytes of `s` cut to at most `maxBytes` bytes without splitting a character.
 * @param s text
 * @param maxBytes maximum byte length (>= 0)
 */
export function utf8Truncate(s: string, maxBytes: number): Uint8Array {
  const b = encoder.encode(s);
  if (b.length <= maxBytes) return b;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut falls on a character start.
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
  return b.slice(0, end);
}

/** Concatenates byte arrays. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * A growable byte buffer with typed writes in a fixed byte order.
 * Used for Stata (little-endian), RDS/XDR (big-endian) and TIFF (little-endian).
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  /** Bytes written so far. */
  length = 0;
  /** @param littleEndian byte order of multi-byte writes */
  constructor(private readonly littleEndian: boolean, initial = 1024) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.buf.subarray(0, this.length));
    this.buf = nb;
    this.view = new DataView(nb.buffer);
  }

  /** Unsigned 8-bit. */
  u8(v: number): this {
    this.ensure(1);
    this.buf[this.length++] = v & 0xff;
    return this;
  }
  /** Unsigned 16-bit. */
  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.length, v, this.littleEndian);
    this.length += 2;
    return this;
  }
  /** Signed 16-bit. */
  i16(v: number): this {
    this.ensure(2);
    this.view.setInt16(this.length, v, this.littleEndian);
    this.length += 2;
    return this;
  }
  /** Unsigned 32-bit. */
  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.length, v, this.littleEndian);
    this.length += 4;
    return this;
  }
  /** Signed 32-bit. */
  i32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.length, v, this.littleEndian);
    this.length += 4;
    return this;
  }
  /** Unsigned 64-bit from a safe integer. */
  u64(v: number): this {
    this.ensure(8);
    this.view.setBigUint64(this.length, BigInt(v), this.littleEndian);
    this.length += 8;
    return this;
  }
  /** IEEE 754 single. */
  f32(v: number): this {
    this.ensure(4);
    this.view.setFloat32(this.length, v, this.littleEndian);
    this.length += 4;
    return this;
  }
  /** IEEE 754 double. */
  f64(v: number): this {
    this.ensure(8);
    this.view.setFloat64(this.length, v, this.littleEndian);
    this.length += 8;
    return this;
  }
  /** Raw bytes. */
  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  /** Text as UTF-8 bytes (no terminator). */
  text(s: string): this {
    return this.bytes(utf8(s));
  }
  /** `n` zero bytes. */
  zeros(n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }
  /** Text in a fixed-width, zero-padded field of `width` bytes (truncated on a character boundary, keeping one terminating NUL when `nulTerminated`). */
  fixed(s: string, width: number, nulTerminated = true): this {
    const b = utf8Truncate(s, nulTerminated ? width - 1 : width);
    this.bytes(b);
    return this.zeros(width - b.length);
  }
  /** Overwrites an unsigned 64-bit value at `offset`. */
  patchU64(offset: number, v: number): void {
    this.view.setBigUint64(offset, BigInt(v), this.littleEndian);
  }
  /** Overwrites an unsigned 32-bit value at `offset`. */
  patchU32(offset: number, v: number): void {
    this.view.setUint32(offset, v, this.littleEndian);
  }
  /** The bytes written (a copy trimmed to length). */
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Escapes text for XML/HTML element content and attribute values. */
export function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Base64 of bytes (btoa exists in browsers, workers and Node >= 16). */
export function toBase64(b: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < b.length; i += chunk) s += String.fromCharCode(...b.subarray(i, i + chunk));
  return btoa(s);
}

/**
 * Formats a number for text formats: shortest round-trip decimal (ECMAScript
 * Number::toString), never exponent notation for |x| in [1e-6, 1e21).
 */
export function fmtNum(x: number): string {
  if (!Number.isFinite(x)) return '';
  return String(x);
}
