import { describe, expect, it } from 'vitest';
import type { VarRecord } from '../../core/types';
import { ZONAL_OPS } from '../../core/engine/zonal';
import { DEFAULT_STATE, parseHash, toHash } from '../url-state';
import { readQ } from './ZonalPicker';
import { statColumns, statLabel, statOptions, weightLayers, zonalRequest, zonalText } from './zonal-choice';

const rec = (varCode: string, unit: string, aggFunR: string, type = 'continuous') => ({ varCode, varLabel: varCode.toLowerCase(), unit, aggFunR, type }) as unknown as VarRecord;

describe('statistics choices (Summaries, Areas, Many polygons)', () => {
  it('offers mean and every operation of the engine registry, with its label', () => {
    const o = statOptions();
    expect(o.map((x) => x.value)).toEqual(['mean', ...ZONAL_OPS.map((z) => z.name)]);
    expect(o.find((x) => x.value === 'stdev')!.label).toBe(ZONAL_OPS.find((z) => z.name === 'stdev')!.label);
  });

  it('sends nothing by default, and q, bins, weights only with the statistic that uses them', () => {
    expect(zonalRequest(DEFAULT_STATE)).toEqual({});
    expect(zonalRequest({ st: [], q: [0.5], bins: 4, wt: 'POP_MODEL' })).toEqual({});
    expect(zonalRequest({ st: ['stdev'], q: [0.5], bins: 4, wt: 'POP_MODEL' })).toEqual({ stats: ['stdev'] });
    expect(zonalRequest({ st: ['quantile', 'histogram', 'weighted_mean'], q: [0.1, 0.9], bins: 4, wt: 'POP_MODEL' }))
      .toEqual({ stats: ['quantile', 'histogram', 'weighted_mean'], q: [0.1, 0.9], bins: [4], weights: 'POP_MODEL' });
    expect(zonalText({ stats: ['quantile'], q: [0.1, 0.9] })).toBe('; stats quantile (q 0.1, 0.9)');
  });

  it('keeps the choice in the link and drops malformed values', () => {
    const s = { ...DEFAULT_STATE, vars: ['ELEVATION'], st: ['quantile', 'weighted_mean'], q: [0.1, 0.5], bins: 20, wt: 'POP_MODEL' };
    const back = parseHash(toHash(s));
    expect([back.st, back.q, back.bins, back.wt]).toEqual([s.st, s.q, 20, 'POP_MODEL']);
    const bad = parseHash('#st=stdev,DROP%20TABLE&q=0.1,2&bins=0&wt=a;b');
    expect([bad.st, bad.q, bad.bins, bad.wt]).toEqual([['stdev'], null, null, null]);
    expect(zonalRequest(back)).toMatchObject({ stats: ['quantile', 'weighted_mean'], q: [0.1, 0.5], weights: 'POP_MODEL' });
  });

  it('weights: the catalog layers counted in people or km2 and summed, people first', () => {
    const by = new Map([rec('AREA_TOTAL', 'km2', 'sum(AREA_TOTAL, na.rm=TRUE)'), rec('ELEVATION', 'm', 'mean(ELEVATION)'), rec('POP_MODEL', 'people', 'sum(POP_MODEL, na.rm=TRUE)'),
      rec('PN05_POP', 'people', 'mean(PN05_POP)'), rec('FS_2012', '', 'mode(FS_2012)', 'class')].map((r) => [r.varCode, r]));
    expect(weightLayers(by).map((r) => r.varCode)).toEqual(['POP_MODEL', 'AREA_TOTAL']);
  });

  it('reads q as probabilities or percents, and names q when it cannot', () => {
    expect(readQ('0.1, 0.5 0.9')).toEqual([0.1, 0.5, 0.9]);
    expect(readQ('10, 50, 90')).toEqual([0.1, 0.5, 0.9]);
    expect(readQ('0.1, x')).toMatch(/^q: /);
    expect(readQ('-0.1')).toMatch(/^q: /);
  });

  it('labels a statistic column from the result with its unit, not an indicator column', () => {
    const cols = [
      { name: 'ELEVATION', role: 'value' as const, code: 'ELEVATION', label: 'Elevation', unit: 'm', type: 'number' as const },
      { name: 'ELEVATION_variance', role: 'value' as const, code: 'ELEVATION', label: 'Elevation (variance)', unit: '(m)^2', type: 'number' as const, dec: 2 },
    ];
    expect(statLabel(cols, 'ELEVATION_variance')).toBe('Elevation (variance) ((m)²)');
    expect(statLabel(cols, 'ELEVATION')).toBeUndefined();
    expect(statColumns(cols)).toEqual(['ELEVATION_variance']);
  });
});
