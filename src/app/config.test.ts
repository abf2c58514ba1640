import { expect, test } from 'vitest';
import { parseConfig } from './config';

const at = 'https://host.example/app/config.json';

test('dataUrl resolves against config.json and ends in a slash', () => {
  expect(parseConfig({}, at)).toEqual({ dataUrl: 'https://host.example/app/data/', cacheMB: undefined, error: undefined });
  expect(parseConfig({ dataUrl: 'https://cdn.example/bundle750' }, at).dataUrl).toBe('https://cdn.example/bundle750/');
  expect(parseConfig({ dataUrl: '../other/' }, at).dataUrl).toBe('https://host.example/other/');
  expect(parseConfig({ dataUrl: './data/', cacheMB: 50 }, at).cacheMB).toBe(50);
});

test('a bad dataUrl falls back to ./data/ and says why', () => {
  const c = parseConfig({ dataUrl: 'javascript:alert(1)' }, at);
  expect(c.dataUrl).toBe('https://host.example/app/data/');
  expect(c.error).toMatch(/not an http\(s\) URL/);
  expect(parseConfig({ dataUrl: 3 }, at).error).toMatch(/must be a string/);
  expect(parseConfig({ cacheMB: -1 }, at).cacheMB).toBeUndefined();
});
