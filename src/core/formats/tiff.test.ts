import { fromArrayBuffer } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { applyPredictor, worldFile, writeGeoTiff } from './tiff';

async function read(b: Uint8Array) {
  const tiff = await fromArrayBuffer(b.slice().buffer);
  const img = await tiff.getImage();
  const [data] = (await img.readRasters()) as unknown as ArrayLike<number>[];
  return { img, data: Array.from(data) };
}

describe('GeoTIFF writer', () => {
  const width = 7;
  const height = 5;
  const floats = Float32Array.from({ length: width * height }, (_, i) => (i % 6 === 0 ? -9999 : Math.sin(i) * 1000));

  it('round-trips Float32 with DEFLATE + floating-point predictor 3 through geotiff.js', async () => {
    const b = writeGeoTiff({ width, height, data: floats, sampleType: 'Float32', xmin: 36, ymax: 0.5, cellSize: 1 / 12, noData: -9999, rowsPerStrip: 2 });
    const { img, data } = await read(b);
    expect(img.getWidth()).toBe(width);
    expect(img.getHeight()).toBe(height);
    expect(data).toEqual(Array.from(floats));
    expect(img.fileDirectory.getValue('Compression')).toBe(8);
    expect(await img.fileDirectory.loadValue('Predictor')).toBe(3);
    expect(img.getGDALNoData()).toBe(-9999);
    expect(img.getOrigin()).toEqual([36, 0.5, 0]);
    expect(img.getResolution()[0]).toBeCloseTo(1 / 12, 15);
    const keys = img.getGeoKeys() as Record<string, number>;
    expect(keys.GTModelTypeGeoKey).toBe(2);
    expect(keys.GTRasterTypeGeoKey).toBe(1);
    expect(keys.GeographicTypeGeoKey).toBe(4326);
  });

  it('round-trips Byte with predictor 2 and a palette', async () => {
    const bytes = Uint8Array.from({ length: width * height }, (_, i) => (i === 3 ? 255 : i % 3));
    const b = writeGeoTiff({ width, height, data: bytes, sampleType: 'Byte', xmin: 0, ymax: 0, cellSize: 1, noData: 255, palette: ['#ff0000', '#00ff00', '#0000ff'] });
    const { img, data } = await read(b);
    expect(data).toEqual(Array.from(bytes));
    expect(img.fileDirectory.getValue('PhotometricInterpretation')).toBe(3);
    const cmap = (await img.fileDirectory.loadValue('ColorMap')) as ArrayLike<number>;
    expect([cmap[0], cmap[256], cmap[512], cmap[1], cmap[257 + 0]]).toEqual([65535, 0, 0, 0, 65535]);
  });

  it('predictor 3 puts the most significant byte plane first, then differences bytes', () => {
    const row = new Uint8Array(new Float32Array([1, 2]).buffer); // 0x3f800000, 0x40000000
    const out = applyPredictor(row.slice(), 2, 4, 3);
    // planes: [3f,40][80,00][00,00][00,00] -> differenced
    expect(Array.from(out)).toEqual([0x3f, 0x01, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00]);
  });

  it('compresses a smooth field far below its raw size', () => {
    const w = 200;
    const h = 150;
    const smooth = Float32Array.from({ length: w * h }, (_, i) => Math.round(1000 + 300 * Math.sin((i % w) / 30) + 200 * Math.cos(Math.floor(i / w) / 25)));
    const raw = writeGeoTiff({ width: w, height: h, data: smooth, sampleType: 'Float32', xmin: 0, ymax: 0, cellSize: 1, noData: -9999, compress: false });
    const p1 = writeGeoTiff({ width: w, height: h, data: smooth, sampleType: 'Float32', xmin: 0, ymax: 0, cellSize: 1, noData: -9999, predictor: 1 });
    const p3 = writeGeoTiff({ width: w, height: h, data: smooth, sampleType: 'Float32', xmin: 0, ymax: 0, cellSize: 1, noData: -9999 });
    expect(raw.length).toBeGreaterThan(w * h * 4);
    expect(p3.length).toBeLessThan(p1.length);
    expect(p3.length).toBeLessThan(raw.length / 3);
  });

  it('writes a world file with the centre of the upper-left cell', () => {
    expect(worldFile(-26, 28, 1 / 12).split('\n').slice(0, 6)).toEqual(['0.0833333333', '0.0000000000', '0.0000000000', '-0.0833333333', '-25.9583333333', '27.9583333333']);
  });
});
