/**
 * `readTiffInfo` on any IFD of a file's chain: the embedded bundle's GDAL COGs (internal
 * overviews 540 x 378, 270 x 189, 135 x 94), checked against geotiff.js reading the same bytes
 * (sizes, tiling, and every cell of an overview).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromArrayBuffer } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { decodeBlock, readTiffInfo } from './tiff';
import { inflateZlib } from './inflate';

const COG = join(__dirname, '../../../public/data/cog');

function load(code: string) {
  const b = readFileSync(join(COG, `${code}.tif`));
  const buf = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  return { buf, read: async (o: number, l: number) => buf.slice(o, o + l) };
}

describe('readTiffInfo on overview IFDs', () => {
  for (const code of ['ELEVATION', 'ELEV_ZONE']) {
    it(`${code}: each IFD's size and tiling as geotiff.js reads them; the coarsest overview cell for cell`, async () => {
      const { buf, read } = load(code);
      const tiff = await fromArrayBuffer(buf);
      const n = await tiff.getImageCount();
      expect(n).toBeGreaterThan(1); // the bundle's COGs carry overviews
      const full = await readTiffInfo(read);
      for (let k = 0; k < n; k++) {
        const im = await tiff.getImage(k);
        const info = await readTiffInfo(read, undefined, k);
        expect([info.width, info.height, info.blockWidth, info.blockHeight]).toEqual([im.getWidth(), im.getHeight(), im.getTileWidth(), im.getTileHeight()]);
        expect(info.kind).toBe(full.kind);
        if (k > 0) expect(info.width).toBeLessThan(full.width);
      }
      const last = await readTiffInfo(read, undefined, n - 1);
      const want = (await (await tiff.getImage(n - 1)).readRasters({ interleave: false, samples: [0] }))[0] as unknown as ArrayLike<number>;
      const float = last.kind === 'float32' || last.kind === 'float64';
      let cells = 0;
      for (let by = 0; by < last.blocksDown; by++) {
        for (let bx = 0; bx < last.blocksAcross; bx++) {
          const i = by * last.blocksAcross + bx;
          const raw = new Uint8Array(buf, last.offsets[i], last.byteCounts[i]);
          const block = await decodeBlock(last, raw, inflateZlib);
          for (let y = by * last.blockHeight; y < Math.min(last.height, (by + 1) * last.blockHeight); y++) {
            for (let x = bx * last.blockWidth; x < Math.min(last.width, (bx + 1) * last.blockWidth); x++) {
              const g = want[y * last.width + x];
              const v = block[(y - by * last.blockHeight) * last.blockWidth + (x - bx * last.blockWidth)];
              if (float && g === full.noData) expect(v).toBeNaN();
              else expect(v).toBe(g);
              cells++;
            }
          }
        }
      }
      expect(cells).toBe(last.width * last.height);
      await expect(readTiffInfo(read, undefined, n)).rejects.toMatchObject({ code: 'IO' });
    });
  }
});
