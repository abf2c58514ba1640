import { expect, test } from 'vitest';
import { curlSnippet, httrSnippet } from './api-snippets';

test('snippets name the contract endpoint and carry the arguments', () => {
  const c = curlSnippet('http://h/ocpu', 'indapi', { var: ['ELEVATION'], iso3: ['KEN'], by: ["ADM1'X"] });
  expect(c).toContain("'http://h/ocpu/library/indapi3/R/indapi/json'");
  expect(c).toContain(`'{"var":["ELEVATION"],"iso3":["KEN"],"by":["ADM1'\\''X"]}'`);
  expect(httrSnippet('/ocpu', 'indapi', { var: ['A', 'B'], by: { ELEVATION: [0, 500] }, exact: true })).toContain('body = list(var = c("A", "B"), by = list(ELEVATION = c(0, 500)), exact = TRUE),');
  expect(httrSnippet('http://h/ocpu', 'similar', { x: 3 })).toContain('POST("http://h/ocpu/library/indapi3/R/similar/json"');
});

test('the R snippet writes a run of years as from:to and two years as c()', () => {
  expect(httrSnippet('/ocpu', 'indapi', { var: ['PWT_POP'], iso3: ['NGA'], year: Array.from({ length: 18 }, (_, i) => 2000 + i) })).toContain('body = list(var = "PWT_POP", iso3 = "NGA", year = 2000:2017)');
  expect(httrSnippet('/ocpu', 'indapi', { year: [2000, 2017], change: 'diff' })).toContain('body = list(year = c(2000, 2017), change = "diff"),');
  expect(httrSnippet('/ocpu', 'indapi', { year: [2005] })).toContain('body = list(year = 2005),');
});

test('the R snippet keeps a list of objects a list (sources), quotes as R does, and leaves out undefined arguments', () => {
  const s = httrSnippet('/ocpu', 'catchment', { sources: [{ lon: 36.8, lat: -1.3, name: 'Say "hi"' }], minutes: [60, 120], iso3: undefined });
  expect(s).toContain('body = list(sources = list(list(lon = 36.8, lat = -1.3, name = "Say \\"hi\\"")), minutes = c(60, 120)),');
});
