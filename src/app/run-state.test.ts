import { describe, expect, test } from 'vitest';
import { initialRunView, oldResult, queryAfter, runReducer, type RunEvent, type RunView } from './run-state';
import type { QuerySpec } from './panels/common';

type A = { xy: [number, number] };
const q = (label: string): QuerySpec => ({ method: 'catchment', args: {}, label });
const NAIROBI = { seq: 1, args: { xy: [36.82, -1.29] as [number, number] }, query: q('Catchment from 36.820, -1.290') };
const MOMBASA = { seq: 2, args: { xy: [39.67, -4.04] as [number, number] }, query: q('Catchment from 39.670, -4.040') };
const SEA = { seq: 3, args: { xy: [41, -6] as [number, number] }, query: q('Catchment from 41.000, -6.000') };

function play(events: Array<RunEvent<A, string>>, from: RunView<A, string> = initialRunView()): RunView<A, string> {
  return events.reduce(runReducer<A, string>, from);
}
const shownNairobi = play([{ type: 'start', req: NAIROBI }, { type: 'success', seq: 1, data: 'nairobi bands' }]);

describe('run-state: what a panel shows of its runs', () => {
  test('a result is shown with the request that produced it', () => {
    expect(shownNairobi.shown).toEqual({ ...NAIROBI, data: 'nairobi bands' });
    expect(shownNairobi.pending).toBeNull();
    expect(oldResult(shownNairobi)).toBeNull();
  });

  test('while a new point computes, the old result stays, marked as the old one with what it was for', () => {
    const s = play([{ type: 'start', req: MOMBASA }], shownNairobi);
    expect(s.shown?.data).toBe('nairobi bands');
    expect(s.shown?.query?.label).toBe('Catchment from 36.820, -1.290');
    expect(oldResult(s)).toEqual({ was: 'Catchment from 36.820, -1.290', next: 'Catchment from 39.670, -4.040' });
  });

  test('a click in the sea (an error) removes the old result', () => {
    const s = play([{ type: 'start', req: SEA }, { type: 'error', seq: 3, error: new Error('lies on a cell the friction surface cannot cross') }], shownNairobi);
    expect(s.shown).toBeNull();
    expect(s.error?.message).toMatch(/cannot cross/);
    expect(oldResult(s)).toBeNull();
  });

  test('a second point while the first computes: the first answer is dropped, the second shown', () => {
    const s1 = play([{ type: 'start', req: MOMBASA }, { type: 'start', req: SEA }, { type: 'success', seq: 2, data: 'mombasa bands' }], shownNairobi);
    expect(s1.shown?.data).toBe('nairobi bands'); // the replaced request's answer never shows
    expect(oldResult(s1)?.next).toBe('Catchment from 41.000, -6.000');
    const s2 = play([{ type: 'success', seq: 3, data: 'third' }], s1);
    expect(s2.shown).toEqual({ ...SEA, data: 'third' });
    // a late error of a replaced request does not remove the shown result
    expect(play([{ type: 'error', seq: 2, error: new Error('late') }], s2)).toBe(s2);
  });

  test('a cancel keeps the shown result, no longer marked old', () => {
    const s = play([{ type: 'start', req: MOMBASA }, { type: 'cancel', seq: 2 }], shownNairobi);
    expect(s.shown?.data).toBe('nairobi bands');
    expect(s.pending).toBeNull();
    expect(oldResult(s)).toBeNull();
  });

  test('an empty result keeps the previous one and notes its request; a new start clears the note and the error', () => {
    const s = play([{ type: 'start', req: MOMBASA }, { type: 'success', seq: 2, data: '', empty: true }], shownNairobi);
    expect(s.shown?.data).toBe('nairobi bands');
    expect(s.empty).toEqual(MOMBASA);
    const e = play([{ type: 'start', req: SEA }, { type: 'error', seq: 3, error: new Error('x') }], s);
    expect(play([{ type: 'start', req: NAIROBI }], e)).toMatchObject({ error: null, empty: null, pending: NAIROBI });
  });
});

describe('queryAfter: the Download and API tabs describe the result on screen', () => {
  const other = q('Summary of ELEVATION for KEN');
  test('a shown result sets its own query, whatever was there', () => {
    expect(queryAfter(other, null, NAIROBI.query)).toBe(NAIROBI.query);
  });
  test('when the result leaves the screen, its query goes (back to the selection); another panel\'s stays', () => {
    expect(queryAfter(NAIROBI.query, NAIROBI.query, null)).toBeNull();
    expect(queryAfter(other, NAIROBI.query, null)).toBe(other);
  });
});
