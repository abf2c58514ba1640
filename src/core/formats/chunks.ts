/**
 * A pull reader over an async iterable of byte chunks (a decompressed stream, a file read in
 * pieces), for the binary table parsers (rds-read.ts). Small reads are synchronous once
 * {@link ChunkReader.need} has made the bytes available; large vectors are read piecewise
 * so no more than one input chunk plus a few bytes is held.
 */
import { IndapiError } from '../errors';

/** Reads bytes, integers and doubles from a chunk stream, big- or little-endian. */
export class ChunkReader {
  private buf: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(this.buf.buffer);
  private pos = 0;
  private done = false;
  private readonly it: AsyncIterator<Uint8Array>;
  /** Bytes consumed so far (offset of the next byte in the stream). */
  offset = 0;
  /** True for little-endian numbers (R's native "B" format on x86); XDR is big-endian. */
  littleEndian = false;

  /**
   * @param chunks the stream
   * @param what name of the input for error messages (the file name)
   */
  constructor(chunks: AsyncIterable<Uint8Array>, readonly what: string) {
    this.it = chunks[Symbol.asyncIterator]();
  }

  /** Bytes available without a read. */
  get available(): number {
    return this.buf.length - this.pos;
  }

  /**
   * Makes at least `n` bytes available.
   * @throws IndapiError UNPARSABLE when the stream ends first (a truncated file)
   */
  async need(n: number): Promise<void> {
    if (this.buf.length - this.pos >= n) return;
    if (this.pos === this.buf.length && !this.done) {
      // common case: the next chunk alone suffices, no copy
      const r = await this.it.next();
      if (r.done) this.done = true;
      else {
        this.buf = r.value;
        this.view = new DataView(r.value.buffer, r.value.byteOffset, r.value.byteLength);
        this.pos = 0;
        if (r.value.length >= n) return;
      }
    }
    const parts: Uint8Array[] = [this.buf.subarray(this.pos)];
    let have = parts[0].length;
    while (have < n) {
      if (this.done) throw new IndapiError('UNPARSABLE', `${this.what} ends early (truncated at byte ${this.offset + have}).`);
      const r = await this.it.next();
      if (r.done) {
        this.done = true;
        continue;
      }
      parts.push(r.value);
      have += r.value.length;
    }
    const b = new Uint8Array(have);
    let o = 0;
    for (const p of parts) {
      b.set(p, o);
      o += p.length;
    }
    this.buf = b;
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.pos = 0;
  }

  /** True when the stream has no further byte. */
  async atEnd(): Promise<boolean> {
    if (this.available > 0) return false;
    try {
      await this.need(1);
      return false;
    } catch {
      return true;
    }
  }

  /** Next byte (call {@link need} first). */
  u8(): number {
    this.offset++;
    return this.buf[this.pos++];
  }

  /** Next int32 (call {@link need} first). */
  i32(): number {
    const v = this.view.getInt32(this.pos, this.littleEndian);
    this.pos += 4;
    this.offset += 4;
    return v;
  }

  /** Next float64 (call {@link need} first). */
  f64(): number {
    const v = this.view.getFloat64(this.pos, this.littleEndian);
    this.pos += 8;
    this.offset += 8;
    return v;
  }

  /** Next `n` bytes (call {@link need} first); a view valid until the next {@link need}. */
  bytes(n: number): Uint8Array {
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    this.offset += n;
    return b;
  }

  /** Reads an int32 (awaiting bytes when needed). */
  async int(): Promise<number> {
    if (this.buf.length - this.pos < 4) await this.need(4);
    return this.i32();
  }

  /** Reads `n` int32 values into a new array, piecewise. */
  async ints(n: number): Promise<Int32Array> {
    const out = new Int32Array(n);
    let i = 0;
    while (i < n) {
      if (this.available < 4) await this.need(4);
      const k = Math.min(n - i, this.available >> 2);
      for (let e = i + k; i < e; i++) out[i] = this.i32();
    }
    return out;
  }

  /** Reads `n` float64 values into a new array, piecewise. */
  async doubles(n: number): Promise<Float64Array> {
    const out = new Float64Array(n);
    let i = 0;
    while (i < n) {
      if (this.available < 8) await this.need(8);
      const k = Math.min(n - i, this.available >> 3);
      for (let e = i + k; i < e; i++) out[i] = this.f64();
    }
    return out;
  }

  /** Reads `n` bytes into a new array, piecewise. */
  async raw(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let i = 0;
    while (i < n) {
      if (this.available < 1) await this.need(1);
      const k = Math.min(n - i, this.available);
      out.set(this.bytes(k), i);
      i += k;
    }
    return out;
  }
}
