import { describe, expect, it } from 'vitest';
import { paletteColors } from './palettes';
import { crc32 } from './png';
import { fiveNum, histogram, quantile7 } from './stats';

describe('statistics, palettes, PNG CRC', () => {
  it('matches R quantile(type = 7) and summary()', () => {
    // R: quantile(c(1, 2, 4, 8, 16), c(.25, .5, .75)) -> 2, 4, 8; quantile(1:10, .33) -> 3.97
    expect(quantile7([1, 2, 4, 8, 16], 0.25)).toBe(2);
    expect(quantile7([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.33)).toBeCloseTo(3.97, 12);
    const { summary } = fiveNum([NaN, 3, 1, 2, 10]);
    expect(summary).toEqual({ n: 4, min: 1, q1: 1.75, median: 2.5, mean: 4, q3: 4.75, max: 10 });
  });
  it('makes 30 equal bins that count every value once', () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i);
    const h = histogram(sorted, 30);
    expect(h).toHaveLength(30);
    expect(h.reduce((s, b) => s + b.count, 0)).toBe(100);
    expect(h[29].x1).toBe(99);
  });
  it('gives ColorBrewer n-class schemes', () => {
    expect(paletteColors('ylorrd', 3)).toEqual(['#ffeda0', '#feb24c', '#f03b20']);
    expect(paletteColors('Set3', 13)?.[12]).toBe('#8dd3c7');
    expect(paletteColors('Blues', 12)).toHaveLength(12);
    expect(paletteColors('nope', 3)).toBeUndefined();
  });
  it('computes the PNG CRC of IEND', () => {
    expect((crc32(new TextEncoder().encode('IEND')) ^ 0xffffffff) >>> 0).toBe(0xae426082);
  });
});
