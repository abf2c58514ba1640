import { expect, test } from 'vitest';
import { curlSnippet, httrSnippet, rLiteral } from './api-snippets';

test('snippets name the contract endpoint and carry the arguments', () => {
  const c = curlSnippet('http://h/ocpu', 'indapi', { var: ['ELEVATION'], iso3: ['KEN'], by: ["ADM1'X"] });
  expect(c).toContain("'http://h/ocpu/library/indapi3/R/indapi/json'");
  expect(c).toContain(`'{"var":["ELEVATION"],"iso3":["KEN"],"by":["ADM1'\\''X"]}'`);
  expect(rLiteral({ var: ['A', 'B'], by: { ELEVATION: [0, 500] }, exact: true })).toBe('list(var = c("A", "B"), by = list(ELEVATION = c(0, 500)), exact = TRUE)');
  expect(httrSnippet('http://h/ocpu', 'similar', { x: 3 })).toContain('POST("http://h/ocpu/library/indapi3/R/similar/json"');
});

test('the R snippet writes a run of years as from:to and two years as c()', () => {
  expect(httrSnippet('/ocpu', 'indapi', { var: ['PWT_POP'], iso3: ['NGA'], year: Array.from({ length: 18 }, (_, i) => 2000 + i) })).toContain('body = list(var = c("PWT_POP"), iso3 = c("NGA"), year = 2000:2017)');
  expect(rLiteral({ year: [2000, 2017], change: 'diff' })).toBe('list(year = c(2000, 2017), change = "diff")');
  expect(rLiteral({ year: [2005] })).toBe('list(year = 2005)');
});
