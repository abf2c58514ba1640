import { describe, expect, test } from 'vitest';
import { isIndapiError } from '../core/errors';
import { parseRLiteral } from './rliteral';
import { deparse, deparseCall, deparseString, FULL, R_TEXT, SHORT } from './deparse';

describe('parseRLiteral', () => {
  test.each([
    [`'KEN'`, 'KEN'],
    [`"KEN"`, 'KEN'],
    [`'it\\'s'`, "it's"],
    [`"a\\"b"`, 'a"b'],
    [`'tab\\there'`, 'tab\there'],
    [`'\\x41\\u00e9\\U{1F600}\\101'`, 'Aé😀A'],
    [`"a,b=c&d"`, 'a,b=c&d'],
    ['1', 1],
    ['-2', -2],
    ['+3.5', 3.5],
    ['1L', 1],
    ['1e3', 1000],
    ['.5', 0.5],
    ['0x1F', 31],
    ['Inf', Infinity],
    ['-Inf', -Infinity],
    ['TRUE', true],
    ['T', true],
    ['FALSE', false],
    ['F', false],
    ['true', true],
    ['false', false],
    ['NULL', null],
    ['null', null],
    ['NA', [null]],
    ['NA_character_', [null]],
    ['  "padded"  ', 'padded'],
  ])('%s', (text, want) => {
    expect(parseRLiteral(text)).toEqual(want);
  });

  test('NaN', () => expect(parseRLiteral('NaN')).toBeNaN());

  test('vectors', () => {
    expect(parseRLiteral(`c('KEN','UGA')`)).toEqual(['KEN', 'UGA']);
    expect(parseRLiteral(`c("KEN")`)).toEqual(['KEN']);
    expect(parseRLiteral('c(1, 2L, -3e2)')).toEqual([1, 2, -300]);
    expect(parseRLiteral('c(1, c(2, 3), NULL)')).toEqual([1, 2, 3]);
    expect(parseRLiteral('c()')).toBeNull();
    expect(parseRLiteral('c(1, NA)')).toEqual([1, null]);
    expect(parseRLiteral(`c(1, 'a', TRUE)`)).toEqual(['1', 'a', 'TRUE']);
    expect(parseRLiteral('c(TRUE, 0)')).toEqual([1, 0]);
  });

  test('named vectors and lists', () => {
    expect(parseRLiteral('list(ELEVATION = c(0, 500, 1000))')).toEqual({ ELEVATION: [0, 500, 1000] });
    expect(parseRLiteral(`list(a = 1, "b c" = 'x', \`d\` = TRUE)`)).toEqual({ a: 1, 'b c': 'x', d: true });
    expect(parseRLiteral(`list('a', 2)`)).toEqual(['a', 2]);
    expect(parseRLiteral('list()')).toEqual([]);
    expect(parseRLiteral('c(a = 1, b = 2)')).toEqual({ a: 1, b: 2 });
    expect(parseRLiteral('list(x = list(y = 1))')).toEqual({ x: { y: 1 } });
  });

  test('JSON as OpenCPU accepts it', () => {
    expect(parseRLiteral('["ADM1_NAME_ALT","ELEVATION"]')).toEqual(['ADM1_NAME_ALT', 'ELEVATION']);
    expect(parseRLiteral('{"ELEVATION": [0, 500]}')).toEqual({ ELEVATION: [0, 500] });
    expect(parseRLiteral('list(a = {"x": 1})')).toEqual({ a: { x: 1 } });
  });

  test.each([
    `['ADM1_NAME_ALT','ELEVATION']`, // the spec's example: single quotes are not JSON, brackets are not R
    'system("rm -rf /")',
    'ELEVATION',
    'x0abc',
    `'unterminated`,
    `"a" "b"`,
    'c(1,',
    'c(1 2)',
    '1 + 1',
    '1i',
    'function(x) x',
    '',
    '   ',
    '`a`',
    '{"a": }',
    `'\\0'`,
    `'\\q'`,
    'list(a == 1)',
    'c(' .repeat(100) + ')'.repeat(100),
  ])('refuses %s', (text) => {
    let err: unknown;
    try {
      parseRLiteral(text);
    } catch (e) {
      err = e;
    }
    expect(isIndapiError(err)).toBe(true);
    expect((err as Error).message).toBe(`Unparsable argument: ${text.length > 200 ? text.slice(0, 200) + '...' : text}`);
    expect((err as any).code).toBe('UNPARSABLE');
  });
});

describe('deparse', () => {
  test('a 9 MB string is cut from a prefix: never spread whole into code points on the event loop (issue 25 item 9)', () => {
    const orig = Array.from;
    let biggest = 0;
    (Array as { from: unknown }).from = (x: unknown, ...rest: unknown[]) => {
      if (typeof x === 'string') biggest = Math.max(biggest, x.length);
      return (orig as (...a: unknown[]) => unknown[])(x, ...rest);
    };
    try {
      const out = deparse('é'.repeat(9_000_000), SHORT);
      expect(out.endsWith('"...')).toBe(true);
      expect(out.length).toBeLessThan(1000);
    } finally {
      (Array as { from: unknown }).from = orig;
    }
    expect(biggest).toBeLessThan(10_000);
  });
  test('values as R prints them', () => {
    expect(deparse('KEN')).toBe('"KEN"');
    expect(deparse(['KEN'])).toBe('"KEN"');
    expect(deparse(['KEN', 'UGA'])).toBe('c("KEN", "UGA")');
    expect(deparse('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(deparse(true)).toBe('TRUE');
    expect(deparse(null)).toBe('NULL');
    expect(deparse([1, null])).toBe('c(1, NA)');
    expect(deparse({ ELEVATION: [0, 500] })).toBe('list(ELEVATION = c(0, 500))');
    expect(deparse({ 'a b': 1 })).toBe('list(`a b` = 1)');
    expect(deparse(Infinity)).toBe('Inf');
  });

  test('calls', () => {
    expect(deparseCall('category', [['cat', 'x']])).toBe('category(cat = "x")');
    expect(deparseCall('indapi', [['var', ['ELEVATION']], ['as.list', true]])).toBe('indapi(var = "ELEVATION", as.list = TRUE)');
  });

  test('calls cut long values: strings after 200 characters, vectors after 20 elements', () => {
    const long = 'MULTIPOINT(' + '(1 2), '.repeat(100_000) + '(1 2))';
    const call = deparseCall('indapi', [['var', 'ELEVATION'], ['wkt', long]]);
    expect(call).toBe(`indapi(var = "ELEVATION", wkt = ${deparseString(long.slice(0, 200))}...)`);
    const many = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(deparseCall('getLayer', [['ids', many]])).toBe(`getLayer(ids = c(${many.slice(0, 20).join(', ')}, ...))`);
    expect(deparseCall('f', [['x', Array.from({ length: 21 }, () => 'ab')]])).toMatch(/^f\(x = c\(("ab", ){20}\.\.\.\)\)$/);
    // nested lists (GeoJSON) stay short too: at most 200 scalars per call
    const nested = { type: 'Polygon', coordinates: [Array.from({ length: 5000 }, (_, i) => [i, i])] };
    expect(deparseCall('classify', [['domains', nested]]).length).toBeLessThan(2000);
    // at most 20 arguments
    const args = Array.from({ length: 50 }, (_, i): [string, unknown] => [`a${i}`, i]);
    expect(deparseCall('f', args)).toMatch(/, a19 = 19, \.\.\.\)$/);
    // full deparse on request
    expect(deparse(many, FULL)).toBe(`c(${many.join(', ')})`);
  });

  test('an unparsable value is cut in the message', () => {
    const text = 'x'.repeat(10_000);
    expect(() => parseRLiteral(text)).toThrow(`Unparsable argument: ${'x'.repeat(200)}...`);
  });

  test('round trip through the parser', () => {
    for (const v of ['x', ['a', 'b'], 1.5, [1, 2, 3], true, { a: [1, 2], b: 'c' }]) {
      expect(parseRLiteral(deparse(v))).toEqual(Array.isArray(v) && v.length === 1 ? v[0] : v);
    }
  });
});

describe('integer sequences from:to', () => {
  test('expands whole-number sequences as R does (increasing, decreasing, inside c(), unary minus first)', () => {
    expect(parseRLiteral('2000:2003')).toEqual([2000, 2001, 2002, 2003]);
    expect(parseRLiteral('2002:2000')).toEqual([2002, 2001, 2000]);
    expect(parseRLiteral('c(1990, 2000:2001)')).toEqual([1990, 2000, 2001]);
    expect(parseRLiteral('-1:1')).toEqual([-1, 0, 1]);
  });
  test('R text of runs (R_TEXT): three or more consecutive whole numbers as from:to, read back the same', () => {
    const years = Array.from({ length: 18 }, (_, i) => 2000 + i);
    expect(deparse(years, FULL, R_TEXT)).toBe('2000:2017');
    expect(parseRLiteral(deparse(years, FULL, R_TEXT))).toEqual(years);
    expect(deparse({ year: [2000, 2001, 2002], by: { ELEVATION: [0, 1, 2, 3.5] } }, FULL, R_TEXT)).toBe('list(year = 2000:2002, by = list(ELEVATION = c(0, 1, 2, 3.5)))');
    expect(deparse([2000, 2017], FULL, R_TEXT)).toBe('c(2000, 2017)');
    expect(deparse([1990, 2000, 2001], FULL, R_TEXT)).toBe('c(1990, 2000, 2001)');
    expect(deparse([2005], FULL, R_TEXT)).toBe('2005');
    expect(deparse([-1, 0, 1], FULL, R_TEXT)).toBe('-1:1');
    expect(deparse([2000, 2001, 2002])).toBe('c(2000, 2001, 2002)'); // R's deparse() of doubles by default
  });
  test('refuses fractional ends and sequences over the bound', () => {
    expect(() => parseRLiteral('1.5:3')).toThrow(/Unparsable/);
    expect(() => parseRLiteral('1:1e9')).toThrow(/Unparsable/);
    // valid R over the bound: the message names the argument and the limit, after the contract's text
    expect(() => parseRLiteral('1:1e9', 'year')).toThrow("Unparsable argument: 1:1e9 ('year': a sequence from:to holds at most 10000 numbers)");
    expect(() => parseRLiteral('0:10000', 'year')).toThrow(/'year': a sequence/);
    expect(parseRLiteral('1:10000', 'year')).toHaveLength(10_000);
    expect(() => parseRLiteral("'a':3")).toThrow(/Unparsable/);
  });
});
