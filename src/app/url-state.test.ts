import { expect, test } from 'vitest';
import { DEFAULT_STATE, HISTORY_KEYS, parseHash, toHash } from './url-state';

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

test('layer comparison: second indicator, mode and swipe divider round-trip; bad ones are dropped', () => {
  const s = { ...DEFAULT_STATE, v: 'ELEVATION', v2: 'PN14_POP', cmp: 'swipe' as const, sw: 0.3 };
  expect(toHash(s)).toBe('#v=ELEVATION&cmp=swipe&v2=PN14_POP&sw=0.3');
  expect(parseHash(toHash(s))).toEqual(s);
  const split = { ...DEFAULT_STATE, v: 'ELEVATION', v2: 'PN14_POP', cmp: 'split' as const };
  expect(parseHash(toHash(split))).toEqual(split);
  // the divider position only matters in swipe mode; a comparison being set up has no second layer yet
  expect(toHash({ ...split, sw: 0.3 })).toBe('#v=ELEVATION&cmp=split&v2=PN14_POP');
  expect(parseHash('#v=ELEVATION&cmp=swipe')).toMatchObject({ cmp: 'swipe', v2: null });
  // an unknown mode turns the comparison off (a lone v2 is ignored); a divider outside the map goes to the middle
  expect(parseHash('#v=ELEVATION&v2=PN14_POP&cmp=fade')).toMatchObject({ cmp: null, v2: null });
  expect(parseHash('#v2=PN14_POP')).toMatchObject({ cmp: null, v2: null });
  expect(parseHash('#cmp=swipe&v2=A&sw=1.5').sw).toBe(0.5);
  expect(parseHash('#cmp=swipe&v2=A&sw=x').sw).toBe(0.5);
  expect(toHash({ ...s, cmp: null })).toBe('#v=ELEVATION');
});

test('entering, switching and leaving a layer comparison are history steps; moving the divider is not', () => {
  expect(HISTORY_KEYS).toEqual(expect.arrayContaining(['v2', 'cmp']));
  expect(HISTORY_KEYS).not.toContain('sw');
});

test('the table builder, the charted indicator and shape names round-trip through the hash', () => {
  const s = parseHash('#v=ELEVATION&iso=KEN&panel=table&run=table&tv=AREA_TOTAL&tr=ADM1_NAME_ALT&tc=ELEV_ZONE&y=AREA_TOTAL');
  expect([s.run, s.tv, s.tr, s.tc, s.y]).toEqual(['table', 'AREA_TOTAL', 'ADM1_NAME_ALT', 'ELEV_ZONE', 'AREA_TOTAL']);
  expect(parseHash(toHash(s))).toEqual(s);
  const w = parseHash(`#wkt=${encodeURIComponent('POINT (36 -1)')}&fn=${encodeURIComponent('["Nairobi, centre"]')}`);
  expect(w.names).toEqual(['Nairobi, centre']);
  expect(parseHash(toHash(w)).names).toEqual(['Nairobi, centre']);
  expect(parseHash('#wkt=POINT%20(36%20-1)&fn=not-json').names).toEqual([]);
  expect(parseHash('#fn=%5B%22a%22%5D').names).toEqual([]); // names without shapes are dropped
});

test('a series year and change map round-trip; bad years and modes are dropped', () => {
  const s = { ...DEFAULT_STATE, v: 'PWT_POP', year: 2017, chg: 'pct' as const, yfrom: 2000 };
  expect(toHash(s)).toBe('#v=PWT_POP&year=2017&chg=pct&yfrom=2000');
  expect(parseHash(toHash(s))).toEqual(s);
  expect(toHash({ ...DEFAULT_STATE, v: 'PWT_POP', yfrom: 2000 })).toBe('#v=PWT_POP'); // a from-year without a change is not kept
  const bad = parseHash('#v=PWT_POP&year=20x7&chg=ratio&yfrom=1e3');
  expect([bad.year, bad.chg, bad.yfrom]).toEqual([null, null, null]);
});

test('the Summaries years (yrs=) round-trip: one year, a range, all; bad values are the latest year', () => {
  for (const [yrs, hash] of [[{ kind: 'one', year: 2005 }, 'yrs=2005'], [{ kind: 'range', from: 2000, to: 2017 }, 'yrs=2000%3A2017'], [{ kind: 'all' }, 'yrs=all']] as const) {
    const s = { ...DEFAULT_STATE, vars: ['PWT_POP'], yrs };
    expect(toHash(s)).toBe(`#vars=PWT_POP&${hash}`);
    expect(parseHash(toHash(s))).toEqual(s);
  }
  for (const bad of ['2017:2000', '20x0', '2000:', 'latest', '99999']) expect(parseHash(`#yrs=${bad}`).yrs).toBeNull();
  expect(parseHash('#yrs=2000:2000').yrs).toEqual({ kind: 'one', year: 2000 });
  expect(toHash({ ...DEFAULT_STATE, yrs: null })).toBe('');
});
