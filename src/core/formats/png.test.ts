import { expect, test } from 'vitest';
import { zlibSync } from 'fflate';
import { crc32, encodePng, pngFile, pngScanlines } from './png';
import { decodePng } from '../../../e2e/png';

/** A 5 x 3 RGBA image, every byte distinct by position. */
const W = 5, H = 3;
const rgba = Uint8Array.from({ length: W * H * 4 }, (_, i) => (i * 37) & 255);

test('CRC-32 of "IEND" is the value every PNG ends with (AE 42 60 82)', () => {
  expect((crc32(new TextEncoder().encode('IEND')) ^ 0xffffffff) >>> 0).toBe(0xae426082);
});

test('an encoded image decodes to its pixels', () => {
  const img = decodePng(encodePng(W, H, rgba));
  expect([img.width, img.height]).toEqual([W, H]);
  expect([...img.data]).toEqual([...rgba]);
});

test('scanlines written in slices and compressed by another zlib make the same image', () => {
  const slices = [pngScanlines(rgba, W, 0, 2), pngScanlines(rgba, W, 2, 1)];
  expect(slices[0][0]).toBe(0); // filter type None
  expect(slices[0][W * 4 + 1]).toBe(0);
  const all = new Uint8Array(slices[0].length + slices[1].length);
  all.set(slices[0]); all.set(slices[1], slices[0].length);
  const img = decodePng(pngFile(W, H, zlibSync(all, { level: 1 })));
  expect([...img.data]).toEqual([...rgba]);
});
