import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseVi } from '../../src/core/bundle';
import type { VarRecord } from '../../src/core/types';
import { seriesLine } from '../../src/ui/IndicatorCard';
import { catalogSeries } from '../../src/ui/series-catalog';
import { yearRangeText } from '../../src/ui/series-info';

const rec = (varCode: string, extra: Partial<VarRecord> = {}): VarRecord => ({ varCode, type: 'continuous', year: '', yearEnd: '', ...extra } as VarRecord);

describe('series of the app catalog', () => {
  it('the embedded national series: years from their records, the card says national value', () => {
    const recs = parseVi(readFileSync('public/data/series/vi.csv', 'utf8'));
    const s = catalogSeries(recs);
    const pop = s.get('PWT_POP')!;
    expect(pop.kind).toBe('national');
    expect(pop.years).toHaveLength(68); // pwt9.1: 1950-2017
    expect(yearRangeText(pop.years)).toBe('1950–2017');
    expect(seriesLine(pop)).toBe('Yearly series 1950–2017 (68 years); national value, no variation within the country');
    expect(yearRangeText(s.get('WDI_TFR')!.years)).toBe('1960–2011'); // statsmodels fertility: WDI 1960-2011
  });

  it('gridded series: yearly codes and CELL5M pairs, each member knows its stem and years; other records are not series', () => {
    const s = catalogSeries([
      rec('ELEVATION'), rec('WPOP_2000'), rec('WPOP_2005'), rec('WPOP_2010'),
      rec('PN00_TOT', { year: '2000', cat3: 'Population', unit: 'people' }), rec('PN05_TOT', { year: '2005', cat3: 'Population', unit: 'people' }),
    ]);
    expect(s.has('ELEVATION')).toBe(false);
    const w = s.get('WPOP_2005')!;
    expect(w).toMatchObject({ stem: 'WPOP', kind: 'gridded', years: [2000, 2005, 2010] });
    expect(s.get('WPOP')).toBe(w);
    expect(w.members.get(2010)).toBe('WPOP_2010');
    expect(s.get('PN00_TOT')!.members.get(2005)).toBe('PN05_TOT');
    expect(seriesLine(w)).toBe('Yearly series WPOP: 2000–2010 (3 years: 2000, 2005, 2010)');
    expect(seriesLine(undefined)).toBe('');
  });
});
