import { describe, expect, it } from 'vitest';
import { cutLabels, formatG, intervalIndex, labelDigits, roundR } from './labels';

describe('R-compatible labels', () => {
  it('formats like C %g', () => {
    expect(formatG(1000, 3)).toBe('1e+03');
    expect(formatG(500, 3)).toBe('500');
    expect(formatG(0.123456, 3)).toBe('0.123');
    expect(formatG(0.00001234, 3)).toBe('1.23e-05');
    expect(formatG(1234.5, 3)).toBe('1.23e+03');
    expect(formatG(-500, 0)).toBe('-5e+02');
    expect(formatG(2.5, 3)).toBe('2.5');
    // exact ties go to the even digit, as glibc printf (R formatC): formatC(c(2500, 1500, 0.125), digits = 1 or 2)
    expect(formatG(2500, 1)).toBe('2e+03');
    expect(formatG(1500, 1)).toBe('2e+03');
    expect(formatG(0.125, 2)).toBe('0.12');
    expect(formatG(99950, 3)).toBe('1e+05');
  });
  it('labels intervals as R cut() does (outputs of Rscript, R 4.2)', () => {
    // levels(cut(c(1,600), c(0,500,1000)))
    expect(cutLabels([0, 500, 1000])).toEqual(['(0,500]', '(500,1e+03]']);
    // levels(cut(1:5, c(0,1500,25000,1e6)))
    expect(cutLabels([0, 1500, 25000, 1e6])).toEqual(['(0,1.5e+03]', '(1.5e+03,2.5e+04]', '(2.5e+04,1e+06]']);
    // levels(cut(1:5, c(-500, 0.123456, 2.5, 1e6)))
    expect(cutLabels([-500, 0.123456, 2.5, 1e6])).toEqual(['(-500,0.123]', '(0.123,2.5]', '(2.5,1e+06]']);
    // levels(cut(c(1,600), c(0,500,1000), dig.lab=0))
    expect(cutLabels([0, 500, 1000], 0)).toEqual(['(0,5e+02]', '(5e+02,1e+03]']);
    // digits grow until adjacent labels differ: levels(cut(1, c(1000,1001)))
    expect(cutLabels([1000, 1001])).toEqual(['(1000,1001]']);
  });
  it('picks dig.lab so that breaks print exactly', () => {
    expect(labelDigits([0, 500, 1000])).toBe(4);
    expect(cutLabels([0, 500, 1000], labelDigits([0, 500, 1000]))).toEqual(['(0,500]', '(500,1000]']);
    expect(labelDigits([0, 0.5, 2])).toBe(3);
    expect(labelDigits([0, 1e6])).toBe(7);
  });
  it('finds right-closed intervals', () => {
    const b = [0, 500, 1000];
    expect(intervalIndex(b, 0)).toBe(-1);
    expect(intervalIndex(b, 0.1)).toBe(0);
    expect(intervalIndex(b, 500)).toBe(0);
    expect(intervalIndex(b, 500.01)).toBe(1);
    expect(intervalIndex(b, 1000)).toBe(1);
    expect(intervalIndex(b, 1000.5)).toBe(-1);
    expect(intervalIndex(b, NaN)).toBe(-1);
  });
  it('rounds like R round()', () => {
    expect(roundR(2.5, 0)).toBe(2);
    expect(roundR(3.5, 0)).toBe(4);
    expect(roundR(0.15, 1)).toBe(0.1); // 0.15 is 0.1499999... in binary
    expect(roundR(1.005, 2)).toBe(1); // 1.00499999...
    expect(roundR(-1.26, 1)).toBe(-1.3);
    expect(roundR(-0.04, 1)).toBe(0);
  });
});
