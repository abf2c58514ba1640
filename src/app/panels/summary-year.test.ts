import { describe, expect, it } from 'vitest';
import { chartYear } from './common';

describe('a Summaries result over several years on the map and chart', () => {
  const rows = [2000, 2017, 2005].flatMap((year) => [{ ISO3: 'NGA', year, PWT_POP: year / 10 }, { ISO3: 'ETH', year, PWT_POP: year / 20 }]);

  it("one year: the year control's when the result holds it, else the latest; none for one year or no year column", () => {
    expect(chartYear(rows, null)).toBe(2017);
    expect(chartYear(rows, 2005)).toBe(2005);
    expect(chartYear(rows, 1990)).toBe(2017);
    expect(chartYear(rows.filter((r) => r.year === 2000), null)).toBeNull();
    expect(chartYear([{ ISO3: 'NGA', PWT_POP: 1 }], 2000)).toBeNull();
    expect(chartYear([{ ISO3: 'NGA', year_from: 2000, year_to: 2017, PWT_POP: 1 }], null)).toBeNull(); // a change: one row per unit
  });

});
