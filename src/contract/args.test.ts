import { describe, expect, test } from 'vitest';
import { bindArgs, BodyError, parseBody, type ArgSpec } from './args';
import { printValue, toCsv } from './rprint';

const SPECS: ArgSpec[] = [
  { name: 'var', type: 'codes', required: true, doc: '' },
  { name: 'iso3', type: 'strings', doc: '' },
  { name: 'by', type: 'by', doc: '' },
  { name: 'as.list', type: 'bool', doc: '' },
  { name: 'n', type: 'int', doc: '' },
];

function err(f: () => unknown): any {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
}

describe('parseBody', () => {
  test('JSON object members are arguments, in order', () => {
    expect(parseBody('application/json; charset=utf-8', '{"var": "A", "iso3": ["KEN"]}')).toEqual([['var', 'A'], ['iso3', ['KEN']]]);
  });
  test('form fields are R literals', () => {
    expect(parseBody('application/x-www-form-urlencoded', "var='A'&iso3=c('KEN','UGA')&as.list=TRUE")).toEqual([['var', 'A'], ['iso3', ['KEN', 'UGA']], ['as.list', true]]);
    expect(parseBody(null, 'n=3')).toEqual([['n', 3]]);
  });
  test('empty body: no arguments', () => {
    expect(parseBody('application/json', '  ')).toEqual([]);
  });
  test('bad bodies', () => {
    expect(err(() => parseBody('application/json', '{'))).toBeInstanceOf(BodyError);
    expect(err(() => parseBody('application/json', '[1]')).status).toBe(400);
    expect(err(() => parseBody('application/json', 'null')).message).toContain('got null');
    expect(err(() => parseBody('application/xml', '<a/>')).status).toBe(415);
    expect(err(() => parseBody('application/x-www-form-urlencoded', 'var=A')).message).toBe('Unparsable argument: A');
  });
});

describe('bindArgs', () => {
  test('coerces scalars to vectors and keeps NULL as default', () => {
    expect(bindArgs('f', SPECS, [['var', 'A'], ['by', null], ['as.list', 1]])).toEqual({ var: ['A'], 'as.list': true });
    expect(bindArgs('f', SPECS, [['var', ['A', 'B']], ['by', { ELEVATION: [0, 500] }]])).toEqual({ var: ['A', 'B'], by: { ELEVATION: [0, 500] } });
    expect(bindArgs('f', SPECS, [['var', 'A'], ['by', 'ISO3']])).toEqual({ var: ['A'], by: ['ISO3'] });
  });
  test('NULL is the default only where the default is NULL; NA is a value', () => {
    const specs: ArgSpec[] = [
      { name: 'var', type: 'codes', required: true, doc: '' },
      { name: 'iso3', type: 'strings', default: '"SSA"', naAsCode: true, doc: '' },
      { name: 'q', type: 'strings', default: 'NULL', doc: '' },
      { name: 'collapse', type: 'bool', default: 'TRUE', doc: '' },
    ];
    expect(bindArgs('f', specs, [['var', 'A'], ['q', null]])).toEqual({ var: ['A'] });
    expect(bindArgs('f', specs, [['var', 'A'], ['iso3', [null]]])).toEqual({ var: ['A'], iso3: ['NA'] });
    expect(bindArgs('f', specs, [['var', 'A'], ['iso3', null]])).toEqual({ var: ['A'], iso3: ['NA'] });
    expect(bindArgs('f', specs, [['var', 'A'], ['iso3', ['KEN', null]]])).toEqual({ var: ['A'], iso3: ['KEN', 'NA'] });
    expect(err(() => bindArgs('f', specs, [['var', 'A'], ['collapse', null]])).message).toBe("invalid 'collapse' argument: expected TRUE or FALSE, got NULL");
    expect(err(() => bindArgs('f', specs, [['var', 'A'], ['collapse', [null]]])).message).toBe("invalid 'collapse' argument: expected TRUE or FALSE, got logical NA");
    expect(err(() => bindArgs('f', specs, [['var', 'A'], ['q', ['a', null]]])).message).toBe(`invalid 'q' argument: expected a character vector without NA, got character c("a", NA)`);
  });
  test('R error messages with the call', () => {
    const e1 = err(() => bindArgs('f', SPECS, [['var', 'A'], ['cat', 'x'], ['dog', 1]]));
    expect(e1.message).toBe('unused arguments (cat = "x", dog = 1)');
    expect(e1.detail.call).toBe('f(var = "A", cat = "x", dog = 1)');
    expect(err(() => bindArgs('f', SPECS, [])).message).toBe('argument "var" is missing, with no default');
    expect(err(() => bindArgs('f', SPECS, [['var', 'A'], ['var', 'B']])).message).toContain('matched by multiple actual arguments');
    expect(err(() => bindArgs('f', SPECS, [['var', [1, 2]]])).message).toBe("invalid 'var' argument: expected a character vector of indicator codes, got numeric c(1, 2)");
    expect(err(() => bindArgs('f', SPECS, [['var', 'A'], ['n', 1.5]])).code).toBe('BAD_ARGUMENT');
    expect(err(() => bindArgs('f', SPECS, [['var', 'A'], ['by', { X: [] }]])).code).toBe('BAD_ARGUMENT');
    expect(err(() => bindArgs('f', SPECS, [['var', 'A'], ['as.list', 'yes']])).code).toBe('BAD_ARGUMENT');
  });
});

describe('rprint', () => {
  test('data frame, vectors, lists', () => {
    expect(printValue([{ ISO3: 'KEN', ELEVATION: 1234.5 }, { ISO3: 'UGA', ELEVATION: 12 }])).toBe('  ISO3 ELEVATION\n1  KEN    1234.5\n2  UGA      12.0');
    expect(printValue(['a', 'bbb'])).toBe('[1] "a"   "bbb"');
    expect(printValue([1, 22, null])).toBe('[1]  1 22 NA');
    expect(printValue(null)).toBe('NULL');
    expect(printValue({ a: 1 })).toBe('$a\n[1] 1\n');
  });
  test('csv as write.csv(row.names = FALSE, na = "")', () => {
    expect(toCsv([{ a: 'x"y', b: 1 }, { a: 'z' }])).toBe('"a","b"\r\n"x""y",1\r\n"z",\r\n');
    expect(toCsv(['p', 'q'])).toBe('"x"\r\n"p"\r\n"q"\r\n');
    expect(() => toCsv({ a: { b: 1 } })).toThrow();
  });
});

test('printing stops at max.print as R does', () => {
  const rows = Array.from({ length: 60000 }, (_, i) => ({ a: i, b: 'x' }));
  const out = printValue(rows);
  expect(out.split('\n').length).toBe(1 + 49999 + 1);
  expect(out.endsWith(`[ reached 'max' / getOption("max.print") -- omitted 10001 rows ]`)).toBe(true);
});
