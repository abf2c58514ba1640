/**
 * First-level census figures (scripts/data/census_adm1.csv: each figure as read on a stored public page,
 * with its page, table, year and source) against the bundle: the CENSUS_POP layer gives them back by
 * unit, and POP_MODEL holds each census area's share of its country (an area: a unit, or the units one published
 * figure covers together, e.g. Sudan's two Darfur states of 2008 over four of 2012; the Kenyan provinces within 1.25x
 * of their 2019 shares, KNBS counties summed into the 8 former provinces). The CSV's national sums are
 * checked against the national totals the offices published (typed here from the pages, not computed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';

const ROOT = join(__dirname, '..', '..');
const engine = createNodeEngine(join(ROOT, 'public', 'data'));

interface CensusRow { iso3: string; code: string; adm1_name: string; unit_published: string; population: string; year: string; source: string; url: string; table: string; note: string }
const rows = Papa.parse<CensusRow>(readFileSync(join(ROOT, 'scripts', 'data', 'census_adm1.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;

/** Census people by census area: a bundle unit code, or several joined by "+" where one published unit covers
 * them together (several published units summed into one where units changed). */
function censusByUnit(iso3: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows.filter((x) => x.iso3 === iso3)) m.set(r.code, (m.get(r.code) ?? 0) + Number(r.population));
  return m;
}

/** Sums of `v` by ADM1_CODE_ALT over one country, through the engine. */
async function byUnit(iso3: string, v: string): Promise<Map<string, number>> {
  const out = (await engine.getLayer({ var: [v], iso3: [iso3], by: ['ADM1_CODE_ALT'] })) as Array<Record<string, unknown>>;
  return new Map(out.slice(1).map((r) => [r.ADM1_CODE_ALT as string, r[v] as number]));
}

/** The figures of the sets of units that lie in no other row's set (a region row holds its districts listed
 * apart): their sum is the national census total. */
function topLevel(iso3: string): Map<string, number> {
  const all = censusByUnit(iso3);
  const sets = [...all.keys()].map((k) => new Set(k.split('+')));
  const inside = (k: string) => sets.some((t) => t.size > k.split('+').length && k.split('+').every((c) => t.has(c)));
  return new Map([...all].filter(([k]) => !inside(k)));
}

const countries = [...new Set(rows.map((r) => r.iso3))].sort();

describe('census_adm1.csv and the CENSUS_POP / POP_MODEL layers', () => {
  it('every row names its year, source, page and table; national sums equal the published totals', () => {
    expect(countries.length).toBeGreaterThanOrEqual(14);
    for (const r of rows) {
      expect(r.url).toMatch(/^https?:\/\//);
      expect(r.year).toMatch(/^(19|20)\d\d$/);
      expect(r.source.length).toBeGreaterThan(10);
      expect(r.table.length).toBeGreaterThan(3);
      expect(Number.isInteger(Number(r.population)) && Number(r.population) > 0).toBe(true);
    }
    // National totals as the offices published them (KNBS 4 Nov 2019; NPC 2006; GSS 2012; Stats SA 2012;
    // NBS Tanzania 2012; INE Mozambique 2017 preliminary; ZIMSTAT 2012; INE Angola 2014; INSTAT Mali 2009
    // provisional; CSO Zambia 2010; INS Niger 2012 preliminary; NSO Malawi 2018; NISR Rwanda 2012 final;
    // INSTAT Madagascar 2018 RGPH-3; CBS Sudan 2008, the 15 northern states as GeoHive prints them, total
    // 30,894,000; INS Côte d'Ivoire RGPH 2014, 22,671,331 as the AIP reported it, news.abidjan.net), read on the
    // pages the CSV cites.
    const published: Record<string, number> = {
      KEN: 47_564_296, NGA: 140_431_790, GHA: 24_658_823, ZAF: 51_770_561, TZA: 44_928_923, MOZ: 28_861_863,
      ZWE: 13_061_239, AGO: 25_789_024, MLI: 14_517_176, ZMB: 13_092_666, NER: 17_129_076, MWI: 17_563_749,
      RWA: 10_515_973, MDG: 25_674_196, SDN: 30_894_000, CIV: 22_671_331,
    };
    for (const [iso3, n] of Object.entries(published)) {
      const sum = [...topLevel(iso3).values()].reduce((a, b) => a + b, 0);
      expect({ iso3, sum }).toEqual({ iso3, sum: n });
    }
    // The UBOS page found gives the 2014 total rounded ("Total population in 2014 was 34.6 million", ubos.org).
    expect(Math.round([...topLevel('UGA').values()].reduce((a, b) => a + b, 0) / 1e5) / 10).toBe(34.6);
  });

  it('Uganda: 2014 districts, with the Central and Western region figures over the districts not found', () => {
    const u = rows.filter((r) => r.iso3 === 'UGA');
    const region = (name: string) => u.find((r) => r.unit_published === name)!;
    // Region rows as the region pages print them, each over all its districts (24 and 26).
    expect([region('Central Region'), region('Western Region')].map((r) => [Number(r.population), r.code.split('+').length]))
      .toEqual([[9_529_227, 24], [8_874_862, 26]]);
    // Every one of the bundle's 112 districts lies in exactly one top-level set.
    const codes = [...topLevel('UGA').keys()].flatMap((k) => k.split('+'));
    expect(codes).toHaveLength(112);
    expect(new Set(codes).size).toBe(112);
    // The Eastern and Northern district tables (2014 column) add up to the region figures the pages print
    // (Eastern 9,042,422 with 32 districts, Northern 7,188,139 with 30).
    const table = (url: string) => u.filter((r) => r.url === url && !r.unit_published.endsWith('Region'));
    const sum = (rs: CensusRow[]) => rs.reduce((a, r) => a + Number(r.population), 0);
    const east = table('https://kiwix.casplantje.nl/wikipedia_en_all_maxi_2018-10/A/Eastern_Region%2C_Uganda.html');
    const north = table('https://wikimili.com/en/Northern_Region,_Uganda');
    expect([east.length, sum(east), north.length, sum(north)]).toEqual([32, 9_042_422, 30, 7_188_139]);
  });

  it('Kenya: the 47 counties of 2019 summed into the 8 former provinces (KNBS figures as reported by the Star, 4 Nov 2019)', () => {
    const k = censusByUnit('KEN');
    expect(rows.filter((r) => r.iso3 === 'KEN')).toHaveLength(47);
    // Province totals the Star printed (Rift Valley 12,752,966; Central 5,482,239; Nairobi 4,397,073; Nyanza 6,269,579).
    expect(k.get('KE-700')).toBe(12_752_966);
    expect(k.get('KE-200')).toBe(5_482_239);
    expect(k.get('KE-110')).toBe(4_397_073);
    expect(k.get('KE-600')).toBe(6_269_579);
  });

  it.each(countries)('%s: CENSUS_POP summed by unit (or over a group of units) gives the census figure of every area', async (iso3) => {
    const got = await byUnit(iso3, 'CENSUS_POP');
    for (const [code, n] of censusByUnit(iso3)) {
      const sum = code.split('+').reduce((a, c) => a + (got.get(c) ?? NaN), 0);
      expect({ code, n: sum }).toEqual({ code, n });
    }
  });

  it.each(['SDN', 'UGA', 'CIV'])('%s: POP_MODEL summed over each census area (a unit or a group of units) holds its census share', async (iso3) => {
    const census = censusByUnit(iso3);
    const model = await byUnit(iso3, 'POP_MODEL');
    const cTot = [...topLevel(iso3).values()].reduce((a, b) => a + b, 0);
    const mTot = [...model.values()].reduce((a, b) => a + b, 0);
    for (const [code, c] of census) {
      const m = code.split('+').reduce((a, k) => a + (model.get(k) ?? NaN), 0);
      const ratio = Math.round(((m / mTot) / (c / cTot)) * 1000) / 1000;
      expect({ code, ratio }).toEqual({ code, ratio: 1 });
    }
  });

  it("each Kenyan province's share of POP_MODEL is within 1.25x of its 2019 census share", async () => {
    const census = censusByUnit('KEN');
    const model = await byUnit('KEN', 'POP_MODEL');
    const cTot = [...census.values()].reduce((a, b) => a + b, 0);
    const mTot = [...model.values()].reduce((a, b) => a + b, 0);
    expect(model.size).toBe(8);
    for (const [code, c] of census) {
      const ratio = Math.round(((model.get(code)! / mTot) / (c / cTot)) * 1000) / 1000;
      expect({ code, ok: ratio >= 0.8 && ratio <= 1.25, ratio }).toMatchObject({ code, ok: true });
    }
  });

  it('the records say where the census figures come from and what was measured', async () => {
    const cat = await engine.loadCatalog();
    const by = (c: string) => cat.records.find((r) => r.varCode === c)!;
    expect(by('CENSUS_POP').varDesc).toMatch(/KEN 2019/);
    expect(by('CENSUS_POP').varDesc).toMatch(/census_adm1\.csv/);
    expect(by('POP_MODEL').varDesc).toMatch(/census shares/);
    expect(by('POP_MODEL').varDesc).toMatch(/median factor of \d\.\d\d/);
  });
});
