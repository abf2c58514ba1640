import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseNationalSeries, parseVi } from '../../src/core/bundle';
import { changeValues, seriesChangeChoro, seriesLines, seriesYearChoro, yearValues } from '../../src/ui/series-map';

const table = parseNationalSeries(readFileSync('public/data/series/national.csv', 'utf8'));
const pop = parseVi(readFileSync('public/data/series/vi.csv', 'utf8')).find((r) => r.varCode === 'PWT_POP')!;

describe('national series on the country outlines', () => {
  it('a year: Nigeria 2017 in the record class 50 - 250 million, no fill where PWT 9.1 has no value', () => {
    const c = seriesYearChoro(pop, yearValues(table, 'PWT_POP', 2017), 2017);
    expect(c.level).toBe(0);
    expect(c.values.get('NGA')).toBeCloseTo(190.886307, 5); // pwt9.1 pop, NGA 2017 (millions)
    const colors = new Map(c.pairs);
    expect(colors.get('NGA')).toBe('#08306b'); // classColors' last: (50, 250]
    expect(colors.get('CPV')).toBe('#f7fbff'); // Cabo Verde, 0.55 million: (0, 1]
    for (const iso of ['ERI', 'SOM', 'SSD']) expect(colors.has(iso)).toBe(false);
    expect(c.legend.map((e) => e.label)).toEqual(['0 - 1', '1 - 5', '5 - 20', '20 - 50', '50 - 250']);
    expect(yearValues(table, 'PWT_POP', 1900).size).toBe(0);
  });

  it('the change 2000-2017 of the countries PWT 9.1 covers: diff and pct as the API, diverging classes centred on 0', () => {
    const a = yearValues(table, 'PWT_POP', 2000), b = yearValues(table, 'PWT_POP', 2017);
    const diff = changeValues(a, b, 'diff');
    expect(diff.size).toBe(46); // the 48 SSA countries but ERI, SOM and SSD, plus SDN (PWT 9.1 has it)
    expect(diff.get('NGA')).toBeCloseTo(190.886306762695 - 122.352012634277, 9); // pwt9.1 pop NGA 2017 - 2000
    const pct = changeValues(a, b, 'pct');
    expect(pct.get('ETH')).toBeCloseTo((100 * (104.95743560791 - 66.5373306274414)) / 66.5373306274414, 9);
    const c = seriesChangeChoro(pop, pct, 2000, 2017, 'pct');
    expect(c.unit).toBe('%');
    expect(c.pairs).toHaveLength(46);
    expect(c.legend).toHaveLength(6);
    expect(c.legend[3].label.startsWith('(0,')).toBe(true); // the blue half starts at 0
    expect(c.code).toBe('PWT_POP change pct 2000-2017');
  });

  it("the map export of a national choropleth says the drawn years, not the series' span 1950-2017", async () => {
    const { exportInfo } = await import('../../src/app/map-export');
    const a = yearValues(table, 'PWT_POP', 2000), b = yearValues(table, 'PWT_POP', 2017);
    const c = seriesChangeChoro(pop, changeValues(a, b, 'pct'), 2000, 2017, 'pct');
    const info = exportInfo({ rec: pop, palette: null, choro: c });
    expect(info.title).toBe('Change (%) of Population (PWT 9.1), 2000–2017');
    expect(info.subtitle).toBe('2000–2017 · unit: %');
    expect(info.legends[0].heading).toBe('Change (%) of Population (PWT 9.1), 2000–2017 (%)');
    const y = exportInfo({ rec: pop, palette: null, choro: seriesYearChoro(pop, b, 2017) });
    expect(y.subtitle).toBe('2017 · unit: million people');
    expect(y.legends[0].heading).toBe('Population (PWT 9.1), 2017 (million people)');
    expect(y.attribution).toEqual(['indapi3', 'PWT_POP: PWT91', 'Places: GeoNames (CC BY 4.0)']);
  });

  it('change: no value where a year lacks the country or pct divides by 0 (breaks: src/core/map/change.test.ts)', () => {
    const ch = changeValues(new Map([['A', 0], ['B', 2], ['C', 4]]), new Map([['A', 1], ['B', 3], ['D', 1]]), 'pct');
    expect([...ch]).toEqual([['B', 50]]);
  });
});

describe('the series chart per unit', () => {
  it("Nigeria's PWT_POP line 1950-2017 is the file's 68 values in year order; ERI has no line, nothing interpolated", () => {
    const [nga, eri] = seriesLines(table, 'PWT_POP', ['NGA', 'ERI']);
    expect(nga.runs).toHaveLength(1);
    const pts = nga.runs[0];
    expect(pts.map((p) => p[0])).toEqual(Array.from({ length: 68 }, (_, i) => 1950 + i));
    // pwt9.1 pop (millions): NGA 1961 43.076, 2000 122.352, 2017 190.886 (R: subset(pwt9.1, isocode == "NGA")$pop)
    expect(pts.find((p) => p[0] === 1961)![1]).toBeCloseTo(43.0760726928711, 9);
    expect(pts.find((p) => p[0] === 2000)![1]).toBeCloseTo(122.352012634277, 9);
    expect(pts.at(-1)).toEqual([2017, 190.886306762695]);
    expect(eri.runs).toEqual([]); // PWT 9.1 has no Eritrea
  });

  it('a year without a value breaks the line', () => {
    const t = parseNationalSeries('series,ISO3,year,value,source\nS,KEN,2000,1,X\nS,KEN,2001,2,X\nS,UGA,2002,5,X\nS,KEN,2003,4,X\n');
    expect(seriesLines(t, 'S', ['KEN'])[0].runs).toEqual([[[2000, 1], [2001, 2]], [[2003, 4]]]);
  });
});
