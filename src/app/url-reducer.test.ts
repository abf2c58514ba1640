import { describe, expect, test } from 'vitest';
import { DEFAULT_STATE, toHash, type UrlState } from './url-state';
import { historyWrite, urlReducer, type UrlPatch } from './url-reducer';

const at = (s: Partial<UrlState>): UrlState => ({ ...DEFAULT_STATE, ...s });
const patch = (s: UrlState, p: Partial<UrlState>, replace?: boolean, hash = toHash(s)): UrlPatch => ({ type: 'patch', patch: p, hash, replace });

describe('urlReducer', () => {
  test('a patch merges keys into the state the location shows', () => {
    const s = at({ v: 'ELEVATION', iso: ['KEN'] });
    expect(urlReducer(s, patch(s, { by: ['ADM1_NAME_ALT'] }))).toEqual(at({ v: 'ELEVATION', iso: ['KEN'], by: ['ADM1_NAME_ALT'] }));
  });

  test('a patch after Back whose navigation is not applied yet builds on the location, not on the state left behind', () => {
    const left = at({ v: 'PN14_POP', iso: ['TZA'] });
    const backTo = at({ v: 'ELEVATION', iso: ['KEN'] });
    const n = urlReducer(left, patch(left, { map: [37, 0, 5] }, true, toHash(backTo)));
    expect(n).toEqual({ ...backTo, map: [37, 0, 5] });
  });

  test('keys the hash does not keep survive a patch while the location shows the state', () => {
    // the second layer of a comparison is kept while the comparison is off
    const s = at({ v: 'ELEVATION', v2: 'PN14_POP' });
    expect(toHash(s)).toBe('#v=ELEVATION');
    expect(urlReducer(s, patch(s, { cmp: 'swipe' })).v2).toBe('PN14_POP');
  });

  test('a navigation reads the location; the same state stays the same object', () => {
    const s = at({ v: 'ELEVATION', v2: 'PN14_POP' });
    expect(urlReducer(s, { type: 'navigate', hash: '#v=ELEVATION' })).toBe(s);
    expect(urlReducer(s, { type: 'navigate', hash: '#v=AREA_LAND&panel=areas' })).toEqual(at({ v: 'AREA_LAND', panel: 'areas' }));
    expect(urlReducer(s, { type: 'navigate', hash: '' })).toEqual(DEFAULT_STATE);
  });
});

describe('historyWrite', () => {
  const s = at({ v: 'ELEVATION' });
  test('a history key taking a new value is a step of its own', () => {
    expect(historyWrite(s, patch(s, { iso: ['KEN'] }))).toEqual({ hash: '#v=ELEVATION&iso=KEN', mode: 'push' });
    expect(historyWrite(s, patch(s, { panel: 'areas' }))?.mode).toBe('push');
  });
  test('other keys, or replace, rewrite the entry', () => {
    expect(historyWrite(s, patch(s, { op: 0.5 }))).toEqual({ hash: '#v=ELEVATION&op=0.5', mode: 'replace' });
    expect(historyWrite(s, patch(s, { iso: ['KEN'] }, true))?.mode).toBe('replace');
  });
  test('a history key set to the value it has is no step', () => {
    const k = at({ v: 'ELEVATION', iso: ['KEN'] });
    expect(historyWrite(k, patch(k, { iso: ['KEN'], op: 0.4 }))?.mode).toBe('replace');
  });
  test('an unchanged hash is not written', () => {
    expect(historyWrite(s, patch(s, { v: 'ELEVATION' }))).toBeNull();
    expect(historyWrite(DEFAULT_STATE, patch(DEFAULT_STATE, {}))).toBeNull();
    // a key the hash does not keep changes the state, not the URL
    expect(historyWrite(s, patch(s, { v2: 'PN14_POP' }))).toBeNull();
  });
  test('the step is judged against the location\'s state after Back', () => {
    const left = at({ v: 'PN14_POP' });
    // after Back to ELEVATION, setting ELEVATION again is no change of v
    expect(historyWrite(left, patch(left, { v: 'ELEVATION' }, false, '#v=ELEVATION'))).toBeNull();
  });
});
