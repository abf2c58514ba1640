/** National series in the catalog methods of the embedded bundle: category() lists them, describe() gives their records. */
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import type { CategoryRow } from '../../src/core/api';

const NATIONAL = ['GM_INFANT_MORT', 'GM_LIFE_EXP', 'PWT_HC', 'PWT_POP', 'PWT_RGDPE_PC', 'WDI_TFR'];

describe('national series in category() and describe()', () => {
  const e = createNodeEngine('public/data');

  it('category() lists the six national series under "National series" beside the gridded layers', async () => {
    const all = (await e.category({})) as CategoryRow[];
    const nat = all.filter((r) => r.category === 'National series').map((r) => r.code).sort();
    expect(nat).toEqual(NATIONAL);
    expect(all.some((r) => r.code === 'ELEVATION')).toBe(true);
    expect(new Set(all.map((r) => r.code)).size).toBe(all.length); // each code once
    const pwt = (await e.category({ q: ['^PWT_'] })) as CategoryRow[];
    expect(pwt.map((r) => r.code).sort()).toEqual(['PWT_HC', 'PWT_POP', 'PWT_RGDPE_PC']);
  });

  it('describe() gives a series its years, unit, source, licence and says it is a national value', async () => {
    const [d] = await e.describe({ var: ['PWT_POP'] });
    expect(d.Code).toBe('PWT_POP');
    expect(d.Period).toBe('1950-2017'); // pwt9.1 covers 1950-2017
    expect(d.Unit).toBe('million people');
    expect(d.License).toBe('CC-BY-4.0');
    expect(d.Source).toBe('PWT91');
    expect(d.Description).toMatch(/National value, no variation within the country/);
    const everything = await e.describe({});
    expect(everything.map((r) => r.Code)).toEqual(expect.arrayContaining([...NATIONAL, 'ELEVATION']));
    const life = (await e.describe({ q: ['life expectancy'] })).find((r) => r.Code === 'GM_LIFE_EXP')!;
    expect(life.Period).toBe('1960-2016'); // dslabs gapminder: 1960-2016
  });
});
