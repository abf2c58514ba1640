import { expect, test } from 'vitest';
import { DEFAULT_STATE, parseHash, toHash } from './url-state';

test('url state round-trips indicator, countries, domains, breaks and shapes', () => {
  const s = { ...DEFAULT_STATE, v: 'ELEVATION', vars: ['ELEVATION', 'AREA_LAND'], iso: ['KEN', 'TZA'], by: ['ADM1_NAME_ALT', 'DIST_COAST'], breaks: { DIST_COAST: [0, 100, 1000] }, wkt: 'POLYGON((36 -1,37 -1,37 0,36 0,36 -1))', exact: true, panel: 'areas' as const, op: 0.5 };
  expect(parseHash(toHash(s))).toEqual(s);
});

test('bad values fall back to defaults and never throw', () => {
  const s = parseHash('#panel=nope&op=7&brk.X=1,a&iso=,KEN,');
  expect(s.panel).toBe('summary');
  expect(s.op).toBe(DEFAULT_STATE.op);
  expect(s.breaks).toEqual({});
  expect(s.iso).toEqual(['KEN']);
  expect(toHash(DEFAULT_STATE)).toBe('');
});

test('removing every summary indicator is kept apart from never choosing one', () => {
  const s = { ...DEFAULT_STATE, v: 'ELEVATION', noVars: true };
  expect(toHash(s)).toBe('#v=ELEVATION&vars=');
  expect(parseHash(toHash(s))).toEqual(s);
  expect(parseHash('#v=ELEVATION').noVars).toBe(false);
});

test('map view, picked place and the run round-trip; bad ones are dropped', () => {
  const s = { ...DEFAULT_STATE, v: 'ELEVATION', map: [37.5, 0.2, 6] as [number, number, number], pick: [36.82, -1.29] as [number, number], run: 'summary' as const };
  expect(parseHash(toHash(s))).toEqual(s);
  const b = parseHash('#map=1,2&pick=a,b&run=nope');
  expect([b.map, b.pick, b.run]).toEqual([null, null, null]);
});
