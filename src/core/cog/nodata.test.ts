import { describe, expect, it } from 'vitest';
import { noDataTest } from './nodata';

describe('noDataTest', () => {
  it('NaN and the tag value are no data; -9999 is only when it is the tag', () => {
    const t = noDataTest(-9999, true);
    expect([NaN, -9999, 0, -9998].map(t)).toEqual([true, true, false, false]);
    expect(noDataTest(255, false)(-9999)).toBe(false);
    expect(noDataTest(null, true)(-9999)).toBe(false);
  });

  it('compares Float32 samples with the tag rounded to Float32', () => {
    const sample = Float32Array.of(-3.4e38)[0];
    expect(noDataTest(-3.4e38, true)(sample)).toBe(true);
    expect(noDataTest(-3.4e38, false)(sample)).toBe(false);
  });
});
