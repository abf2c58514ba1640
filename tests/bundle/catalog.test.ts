/**
 * The catalog (vi.csv), the class tables and iso.csv: complete records, parseable
 * aggregation formulas over existing codes, consistent legends, labelled class values,
 * country and region codes with members, bboxes and cell counts that match the ISO3 layer.
 */
import { describe, expect, it } from 'vitest';
import { SSA_GRID } from '../../src/core/grid';
import type { VarRecord } from '../../src/core/types';
import { parseAggFun } from '../../src/core/r/expr';
import { readBand, readCatalog, readClassTable, readCsv } from './bundle.fixture';

const FIELDS: (keyof VarRecord)[] = [
  'varCode', 'varLabel', 'varTitle', 'varDesc', 'unit', 'type', 'dec', 'aggFunR', 'classBreaks', 'classLabels',
  'classColors', 'cat1', 'cat2', 'cat3', 'year', 'yearEnd', 'sources', 'sourceMini', 'owner', 'citation', 'license',
  'version', 'published', 'dataType', 'noData', 'classTable',
];
const SSA49 = ('AGO BDI BEN BFA BWA CAF CIV CMR COD COG COM CPV DJI ERI ETH GAB GHA GIN GMB GNB GNQ KEN LBR LSO MDG ' +
  'MLI MOZ MRT MUS MWI NAM NER NGA RWA SDN SEN SLE SOM SSD STP SWZ SYC TCD TGO TZA UGA ZAF ZMB ZWE').split(' ');
const MAIN = ['ELEVATION', 'SLOPE', 'TRI', 'ELEV_ZONE', 'AREA_TOTAL', 'AREA_LAND', 'AREA_WATER', 'DIST_COAST',
  'DIST_PLACE20K', 'DIST_PLACE50K', 'DIST_PLACE100K', 'DIST_PLACE500K', 'PLACES_N', 'PLACES_POP', 'PN14_POP', 'POP_MODEL',
  'PN14_LIFEEXP', 'PN14_GDPPC', 'INCOME_GRP', 'ISO3', 'ADM0_NAME', 'ADM1_CODE_ALT', 'ADM1_NAME_ALT'];

describe('vi.csv', () => {
  const { fields } = readCsv('vi.csv');
  const recs = readCatalog();
  const byCode = new Map(recs.map((r) => [r.varCode, r]));

  it('has the VarRecord header in order and at least 20 unique indicators including the main ones', () => {
    expect(fields).toEqual(FIELDS);
    expect(recs.length).toBeGreaterThanOrEqual(20);
    expect(byCode.size).toBe(recs.length);
    for (const c of MAIN) expect(byCode.has(c)).toBe(true);
    for (const r of recs) expect(r.varCode).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it('has every field filled where it must be', () => {
    for (const r of recs) {
      const mayBeEmpty = new Set<string>(r.type === 'continuous' ? ['classTable'] : ['unit']);
      if (r.type === 'class' && r.classBreaks === '') ['classBreaks', 'classLabels', 'classColors'].forEach((k) => mayBeEmpty.add(k));
      for (const k of FIELDS) {
        if (!mayBeEmpty.has(k)) expect({ code: r.varCode, k, empty: r[k].trim() === '' }).toEqual({ code: r.varCode, k, empty: false });
      }
      expect(['continuous', 'class']).toContain(r.type);
      expect(Number.isInteger(Number(r.dec)) && Number(r.dec) >= 0).toBe(true);
      expect(r.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.varDesc.length).toBeGreaterThan(80);
    }
  });

  it('has aggFunR that the engine parses, over existing continuous codes led by the record (dominant for classes)', () => {
    for (const r of recs) {
      const f = parseAggFun(r.aggFunR);
      expect({ code: r.varCode, kind: f.kind }).toEqual({ code: r.varCode, kind: r.type === 'class' ? 'dominant' : 'expr' });
      expect(f.columns[0]).toBe(r.varCode);
      for (const c of f.columns.slice(1)) {
        expect(byCode.get(c)?.type, `${r.varCode} names ${c}`).toBe('continuous');
      }
    }
    expect(byCode.get('AREA_LAND')!.aggFunR).toBe('sum(AREA_LAND, na.rm=TRUE)');
    expect(byCode.get('PN14_POP')!.aggFunR).toBe('sum(PN14_POP, na.rm=TRUE)');
    // population-weighted over the cells with both values (R's weighted.mean is NA with Eritrea's missing population)
    expect(byCode.get('PN14_LIFEEXP')!.aggFunR).toBe('sum(PN14_LIFEEXP*PN14_POP, na.rm=TRUE)/sum(PN14_POP + 0*PN14_LIFEEXP, na.rm=TRUE)');
  });

  it('has consistent legends: n+1 increasing breaks, n labels, n #rrggbb colours (continuous); values/labels/colours (class)', () => {
    for (const r of recs) {
      const colors = r.classColors ? r.classColors.split('|') : [];
      for (const c of colors) expect(c).toMatch(/^#[0-9a-f]{6}$/);
      if (r.type === 'continuous') {
        const br = r.classBreaks.split('|').map(Number);
        expect(br.every(Number.isFinite)).toBe(true);
        for (let i = 1; i < br.length; i++) expect(br[i]).toBeGreaterThan(br[i - 1]);
        expect(r.classLabels.split('|')).toHaveLength(br.length - 1);
        expect(colors).toHaveLength(br.length - 1);
        expect(r.dataType).toBe('Float32');
        expect(r.noData).toBe('-9999');
      } else {
        expect(r.classTable).toBe(`classes/${r.varCode}.csv`);
        if (r.classBreaks) {
          const vals = r.classBreaks.split('|');
          expect(r.classLabels.split('|')).toHaveLength(vals.length);
          expect(colors).toHaveLength(vals.length);
        }
      }
    }
  });

  it('continuous default breaks cover every value of the layer (R cut() right-closed)', async () => {
    for (const r of recs.filter((x) => x.type === 'continuous')) {
      const br = r.classBreaks.split('|').map(Number);
      const band = await readBand(r.varCode);
      let min = Infinity;
      let max = -Infinity;
      for (const v of band.data) {
        if (v === band.noData) continue;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      expect({ code: r.varCode, covered: min > br[0] && max <= br[br.length - 1] }).toEqual({ code: r.varCode, covered: true });
    }
  });
});

describe('class tables', () => {
  const recs = readCatalog().filter((r) => r.type === 'class');

  it('label every value present in every class raster, and match the inline lists', async () => {
    for (const r of recs) {
      const { labels, rows } = readClassTable(r.varCode);
      expect(Object.keys(rows[0]).slice(0, 3)).toEqual(['value', 'label', 'color']);
      for (const row of rows) {
        expect(Number.isInteger(Number(row.value))).toBe(true);
        expect(row.label.trim()).not.toBe('');
        expect(row.color).toMatch(/^#[0-9a-f]{6}$/);
      }
      expect(new Set(rows.map((x) => x.value)).size).toBe(rows.length);
      const band = await readBand(r.varCode);
      const present = new Set<number>();
      for (const v of band.data) if (v !== band.noData) present.add(v);
      const unlabelled = [...present].filter((v) => !labels.has(v));
      expect({ code: r.varCode, unlabelled }).toEqual({ code: r.varCode, unlabelled: [] });
      if (r.classBreaks) {
        expect(rows.map((x) => x.value)).toEqual(r.classBreaks.split('|'));
        expect(rows.map((x) => x.label)).toEqual(r.classLabels.split('|'));
      }
    }
  });

  it('ISO3 / ADM0_NAME / ADM1 tables carry their documented extra columns and agree', () => {
    const iso = readClassTable('ISO3').rows;
    const adm0 = readClassTable('ADM0_NAME').rows;
    expect(iso.map((r) => r.label)).toEqual(SSA49);
    expect(Object.keys(iso[0])).toEqual(['value', 'label', 'color', 'name']);
    expect(Object.keys(adm0[0])).toEqual(['value', 'label', 'color', 'iso3']);
    expect(adm0.map((r) => [r.value, r.iso3, r.label])).toEqual(iso.map((r) => [r.value, r.label, r.name]));
    const code = readClassTable('ADM1_CODE_ALT').rows;
    const name = readClassTable('ADM1_NAME_ALT').rows;
    expect(Object.keys(code[0]).slice(0, 5)).toEqual(['value', 'label', 'color', 'name', 'iso3']);
    expect(Object.keys(name[0]).slice(0, 5)).toEqual(['value', 'label', 'color', 'code', 'iso3']);
    expect(name.map((r) => [r.value, r.code, r.label, r.iso3])).toEqual(code.map((r) => [r.value, r.label, r.name, r.iso3]));
    expect(new Set(code.map((r) => r.label)).size).toBe(code.length);
    for (const r of code) expect(SSA49).toContain(r.iso3);
    // Natural Earth's non-ISO country codes are mapped: no SDS / SOL left.
    expect(code.filter((r) => r.iso3 === 'SDS' || r.iso3 === 'SOL')).toEqual([]);
    expect(code.some((r) => r.iso3 === 'SSD')).toBe(true);
    // Names are unique within a country (duplicates carry their code).
    const seen = new Set(name.map((r) => `${r.iso3}/${r.label}`));
    expect(seen.size).toBe(name.length);
  });
});

describe('iso.csv', () => {
  const { fields, rows } = readCsv('iso.csv');

  it('lists the 49 countries and the regions SSA, EAF, MAF, SAF, WAF with members', () => {
    expect(fields).toEqual(['code', 'name', 'type', 'members', 'xmin', 'ymin', 'xmax', 'ymax', 'cells']);
    const countries = rows.filter((r) => r.type === 'country');
    expect(countries.map((r) => r.code).sort()).toEqual(SSA49);
    for (const c of countries) expect(c.members).toBe(c.code);
    const regions = new Map(rows.filter((r) => r.type === 'region').map((r) => [r.code, r.members.split('|')]));
    expect([...regions.keys()].sort()).toEqual(['EAF', 'MAF', 'SAF', 'SSA', 'WAF']);
    expect([...regions.get('SSA')!].sort()).toEqual(SSA49);
    const sub = ['EAF', 'MAF', 'SAF', 'WAF'].flatMap((k) => regions.get(k)!);
    expect(new Set(sub).size).toBe(sub.length); // disjoint
    expect([...sub, 'SDN'].sort()).toEqual(SSA49); // Sudan is in SSA only (M49: Northern Africa)
    expect(regions.get('SAF')!.sort()).toEqual(['BWA', 'LSO', 'NAM', 'SWZ', 'ZAF']);
    expect(regions.get('MAF')!.sort()).toEqual(['AGO', 'CAF', 'CMR', 'COD', 'COG', 'GAB', 'GNQ', 'STP', 'TCD']);
    expect(rows.every((r) => r.name.trim() !== '')).toBe(true);
  });

  it('has bboxes on cell edges and cell counts that match the ISO3 layer; every country has cells', async () => {
    const iso = await readBand('ISO3');
    const labels = readClassTable('ISO3').labels;
    const codeOf = new Map([...labels].map(([v, l]) => [l, v]));
    const stats = new Map<number, { n: number; c0: number; c1: number; r0: number; r1: number }>();
    for (let i = 0; i < iso.data.length; i++) {
      const v = iso.data[i];
      if (v === iso.noData) continue;
      const c = i % SSA_GRID.width;
      const r = Math.floor(i / SSA_GRID.width);
      const s = stats.get(v) ?? { n: 0, c0: Infinity, c1: -1, r0: Infinity, r1: -1 };
      s.n++; s.c0 = Math.min(s.c0, c); s.c1 = Math.max(s.c1, c); s.r0 = Math.min(s.r0, r); s.r1 = Math.max(s.r1, r);
      stats.set(v, s);
    }
    let total = 0;
    for (const row of rows.filter((r) => r.type === 'country')) {
      const s = stats.get(codeOf.get(row.code)!);
      expect({ code: row.code, hasCells: (s?.n ?? 0) > 0 }).toEqual({ code: row.code, hasCells: true });
      expect(Number(row.cells)).toBe(s!.n);
      total += s!.n;
      const close = (a: string, b: number) => expect(Math.abs(Number(a) - b)).toBeLessThan(1e-5);
      close(row.xmin, SSA_GRID.xmin + s!.c0 / 12);
      close(row.xmax, SSA_GRID.xmin + (s!.c1 + 1) / 12);
      close(row.ymax, SSA_GRID.ymax - s!.r0 / 12);
      close(row.ymin, SSA_GRID.ymax - (s!.r1 + 1) / 12);
    }
    expect(Number(rows.find((r) => r.code === 'SSA')!.cells)).toBe(total);
  });
});
