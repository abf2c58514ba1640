import { describe, expect, test } from 'vitest';
import { IndapiError } from '../errors';
import { breaksProblem, checkBreaks, intervalRule, MAX_BREAKS, MAX_BY_BREAKS, minutesRule, parseBreaks } from './breaks';

const msg = (f: () => unknown): string => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(IndapiError); expect((e as IndapiError).code).toBe('BAD_BREAKS'); return (e as Error).message; }
  throw new Error('no error');
};
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('breaks: one reading for the API and the panels', () => {
  const minutes = minutesRule();
  const elev = intervalRule('ELEVATION');

  test('separators: commas, semicolons, bars, white space', () => {
    expect(parseBreaks(' 0, 60 120;240|480 ', minutes)).toEqual([0, 60, 120, 240, 480]);
    expect(parseBreaks('1e3, 2.5e3', elev)).toEqual([1000, 2500]);
  });

  test('sorted: a list out of order is refused, never sorted silently; the pair is named', () => {
    expect(msg(() => parseBreaks('0, 120, 60', minutes))).toBe("'minutes' must be strictly increasing numbers; 60 follows 120.");
    expect(msg(() => checkBreaks([500, 100], elev))).toBe('Breaks for ELEVATION must be strictly increasing numbers; 100 follows 500.');
  });

  test('unique: a repeated break is refused', () => {
    expect(msg(() => checkBreaks([0, 60, 60], minutes))).toBe("'minutes' must be strictly increasing numbers; 60 follows 60.");
    expect(breaksProblem([0, 0], elev)).toEqual({ kind: 'order', at: 1, value: 0, prev: 0 });
  });

  test('bounds: minutes are >= 0 and finite; interval breaks take any finite number', () => {
    expect(msg(() => checkBreaks([-1, 60], minutes))).toBe("'minutes' must be finite numbers of minutes >= 0; got -1.");
    expect(msg(() => checkBreaks([0, Infinity], minutes))).toBe("'minutes' must be finite numbers of minutes >= 0; got Inf.");
    expect(checkBreaks([-6000, -100, 0, 200], elev)).toEqual([-6000, -100, 0, 200]);
    expect(msg(() => parseBreaks('0, NaN', elev))).toBe('Breaks for ELEVATION must be finite numbers; got "NaN".');
    expect(msg(() => parseBreaks('0, 5 km', elev))).toBe('Breaks for ELEVATION must be finite numbers; got "km".');
  });

  test('count: at least two, at most MAX_BREAKS minutes and MAX_BY_BREAKS interval breaks (the API limits)', () => {
    expect(msg(() => parseBreaks('60', minutes))).toBe("'minutes' needs at least two breaks (minutes), e.g. c(0, 60, 120); got 1.");
    expect(msg(() => parseBreaks('', elev))).toBe('Breaks for ELEVATION need at least two breaks, e.g. 0, 500, 1000; got 0.');
    expect(checkBreaks(upTo(MAX_BREAKS), minutes)).toHaveLength(100);
    expect(msg(() => checkBreaks(upTo(MAX_BREAKS + 1), minutes))).toBe("'minutes' gives 101 breaks; at most 100 are allowed.");
    expect(checkBreaks(upTo(MAX_BY_BREAKS), elev)).toHaveLength(1000);
    expect(msg(() => checkBreaks(upTo(MAX_BY_BREAKS + 1), elev))).toBe('Breaks for ELEVATION give 1001 breaks; at most 1000 are allowed.');
  });

  test("the error names the argument (detail.arg) and the input is not changed", () => {
    const b = [0, 60];
    expect(checkBreaks(b, minutes)).not.toBe(b);
    try { checkBreaks([1], minutes); } catch (e) { expect((e as IndapiError).detail).toEqual({ arg: 'minutes' }); }
  });
});
