import { describe, expect, it } from 'vitest';
import { contentRange, parseContentRange, parseRange } from './http-range';

describe('parseRange (RFC 9110 14.1.2)', () => {
  it.each([
    ['bytes=0-9', 100, [0, 9]],
    ['bytes=90-', 100, [90, 99]],
    ['bytes=-5', 100, [95, 99]],
    ['bytes=-500', 100, [0, 99]],
    ['bytes=95-200', 100, [95, 99]],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=5-1', 100, undefined],
    ['bytes=0-1,4-5', 100, undefined],
    ['items=0-1', 100, undefined],
    ['bytes=-', 100, undefined],
  ] as const)('%s of %i bytes', (h, size, want) => expect(parseRange(h, size)).toEqual(want));

  it('contentRange', () => expect(contentRange(10, 19, 100)).toBe('bytes 10-19/100'));
});

describe('parseContentRange', () => {
  it('reads start, end and size, * as NaN; refuses anything else', () => {
    expect(parseContentRange('bytes 10-14/100')).toEqual({ start: 10, end: 14, size: 100 });
    expect(parseContentRange(' bytes 0-0/*')).toEqual({ start: 0, end: 0, size: NaN });
    expect(parseContentRange('bytes */100')).toBeUndefined();
    expect(parseContentRange(null)).toBeUndefined();
    expect(parseContentRange('items 1-2/3')).toBeUndefined();
  });
});
