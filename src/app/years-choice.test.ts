import { describe, expect, it } from 'vitest';
import { parseYears, seriesOfVars, yearArg, yearsParam } from './years-choice';

describe('years choice', () => {
  it('reads and writes the hash value', () => {
    expect(parseYears('2000:2017')).toEqual({ kind: 'range', from: 2000, to: 2017 });
    expect(yearsParam({ kind: 'range', from: 2000, to: 2017 })).toBe('2000:2017');
    expect(parseYears(null)).toBeNull();
    expect(parseYears('1990,2000')).toBeNull();
  });

  it('gives the API year argument: every year of a range, the held years for all, none for the latest', () => {
    const r = yearArg({ kind: 'range', from: 2000, to: 2017 }, [])!;
    expect(r).toHaveLength(18);
    expect([r[0], r[17]]).toEqual([2000, 2017]);
    expect(yearArg({ kind: 'one', year: 2005 }, [2000, 2005])).toEqual([2005]);
    expect(yearArg({ kind: 'all' }, [1990, 2000, 2005])).toEqual([1990, 2000, 2005]);
    expect(yearArg({ kind: 'all' }, [])).toBeUndefined();
    expect(yearArg(null, [2000])).toBeUndefined();
  });

  it('finds the series of the chosen codes: stems of gridded members, years held by all; null with a plain code', () => {
    const pn = { stem: 'PN_TOT', years: [2000, 2005] };
    const series = new Map([['PWT_POP', { stem: 'PWT_POP', years: [1950, 2000, 2005, 2017] }], ['PN00_TOT', pn], ['PN05_TOT', pn]]);
    expect(seriesOfVars(['PN05_TOT', 'PN00_TOT', 'PWT_POP'], series)).toEqual({ stems: ['PN_TOT', 'PWT_POP'], held: [2000, 2005] });
    expect(seriesOfVars(['PWT_POP', 'ELEVATION'], series)).toBeNull();
    expect(seriesOfVars([], series)).toBeNull();
  });
});
