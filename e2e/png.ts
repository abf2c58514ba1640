/**
 * Minimal PNG decoder for test screenshots (PNG spec, W3C 2003: 8-bit RGB or RGBA,
 * non-interlaced; filters None/Sub/Up/Average/Paeth), inflating IDAT with fflate.
 */
import { unzlibSync } from 'fflate';

/** A decoded image: RGBA bytes, row-major. */
export interface Rgba { width: number; height: number; data: Uint8Array }

/** Decodes a PNG. @throws Error for unsupported PNGs */
export function decodePng(buf: Uint8Array): Rgba {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let p = 8, width = 0, height = 0, ct = 0;
  const idat: Uint8Array[] = [];
  while (p < buf.length) {
    const len = dv.getUint32(p); const type = String.fromCharCode(...buf.subarray(p + 4, p + 8));
    const body = buf.subarray(p + 8, p + 8 + len);
    if (type === 'IHDR') {
      width = dv.getUint32(p + 8); height = dv.getUint32(p + 12); ct = body[9];
      if (body[8] !== 8 || (ct !== 2 && ct !== 6) || body[12] !== 0) throw new Error('unsupported PNG');
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    p += 12 + len;
  }
  const all = new Uint8Array(idat.reduce((a, b) => a + b.length, 0));
  let o = 0; for (const c of idat) { all.set(c, o); o += c.length; }
  const raw = unzlibSync(all);
  const bpp = ct === 6 ? 4 : 3, stride = width * bpp;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride), cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let v = line[i];
      if (f === 1) v += a; else if (f === 2) v += b; else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const pp = a + b - c, pa = Math.abs(pp - a), pb = Math.abs(pp - b), pc = Math.abs(pp - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      cur[i] = v & 255;
    }
    for (let x = 0; x < width; x++) {
      out[(y * width + x) * 4] = cur[x * bpp]; out[(y * width + x) * 4 + 1] = cur[x * bpp + 1]; out[(y * width + x) * 4 + 2] = cur[x * bpp + 2];
      out[(y * width + x) * 4 + 3] = bpp === 4 ? cur[x * bpp + 3] : 255;
    }
    [prev, cur] = [cur, prev];
  }
  return { width, height, data: out };
}
