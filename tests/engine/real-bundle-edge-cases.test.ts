/**
 * Edge cases of the engine on the real bundle (public/data): per-cell no-data outside custom breaks,
 * linear-time user patterns, unit rows with their country over a region, WKT ignoring iso3,
 * and `similar` with an unknown unit as a bad argument.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { compilePatterns } from '../../src/core/catalog';
import { isIndapiError } from '../../src/core/errors';
import type { CategoryRow } from '../../src/core/api';
import type { Row } from '../../src/core/types';

const engine = createNodeEngine(join(__dirname, '../../public/data'));

async function errorOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isIndapiError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an error');
}

describe('engine edge cases on the real bundle', () => {
  const partial = { var: ['ELEVATION'], iso3: ['KEN'], by: { DIST_PLACE500K: [0, 50, 100] } } as never;

  it("cells outside every interval of a continuous by form R's NA group: key null, the NA row's summary per cell", async () => {
    const rows = (await engine.getLayer({ ...(partial as object), collapse: false } as never)) as Row[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(['(0,50]', '(50,100]', null]).toContain(r.DIST_PLACE500K);
    const dist = await engine.getLayerCells({ var: ['DIST_PLACE500K'], iso3: ['KEN'] });
    const zonal = await engine.getLayerCells(partial);
    expect([zonal.grid.width, zonal.grid.height, zonal.grid.xmin]).toEqual([dist.grid.width, dist.grid.height, dist.grid.xmin]);
    const table = (await engine.getLayer(partial)) as Row[];
    const byLabel = new Map(table.filter((r) => r.DIST_PLACE500K !== undefined).map((r) => [r.DIST_PLACE500K, r.ELEVATION]));
    const naValue = byLabel.get(null);
    expect(naValue).toEqual(expect.any(Number));
    let beyond = 0, within = 0;
    const key = zonal.keys![1];
    expect(key.code).toBe('DIST_PLACE500K');
    for (let i = 0; i < zonal.mask.length; i++) {
      if (!zonal.mask[i]) continue;
      const d = dist.layers[0].values[i];
      const v = zonal.layers[0].values[i];
      if (d > 0 && d <= 100) {
        within++;
        const label = d <= 50 ? '(0,50]' : '(50,100]';
        expect(v).toBe(byLabel.get(label));
        expect(key.values[i]).toBe(d <= 50 ? 1 : 2);
      } else {
        beyond++;
        expect(v).toBe(naValue);
        expect(key.values[i]).toBeNaN();
      }
    }
    expect(beyond).toBeGreaterThan(1000);
    expect(rows).toHaveLength(within + beyond);
    expect(rows.filter((r) => r.DIST_PLACE500K === null)).toHaveLength(beyond);
    // the table: the country's overall row (total: 1, no key), the two intervals, then the NA group
    expect(table.map((r) => (r.DIST_PLACE500K === undefined ? 'total' : r.DIST_PLACE500K))).toEqual(['total', '(0,50]', '(50,100]', null]);
    expect(table[0].total).toBe(1);
    expect(table[0].ELEVATION).not.toBe(table[1].ELEVATION);
  });

  it('user patterns are matched in linear time (RE2), case-insensitive', async () => {
    const [a, b] = await compilePatterns(['(.*){6}QQQ', '(a+)+$']);
    expect(a.test('x'.repeat(200))).toBe(false);
    expect(a.test('abc qqq')).toBe(true);
    expect(b.test('a'.repeat(5000) + '!')).toBe(false);
    expect(b.test('baaa')).toBe(true);
    const codes = async (q: string) => ((await engine.category({ q: [q] })) as CategoryRow[]).map((r) => r.code);
    expect(await codes('elev')).toContain('ELEVATION');
    const dist = await codes('^DIST_');
    expect(dist.length).toBeGreaterThan(0);
    const all = (await engine.category({})) as CategoryRow[];
    expect(dist).toEqual(all.filter((r) => [r.code, r.label, r.category, r.subcategory, r.item].some((f) => /^dist_/i.test(f))).map((r) => r.code));
    expect(dist).toContain('DIST_PLACE500K');
    const pc = await codes('place|coast');
    expect(pc).toEqual(all.filter((r) => [r.code, r.label, r.category, r.subcategory, r.item].some((f) => /place|coast/i.test(f))).map((r) => r.code));
    expect(pc).toEqual(expect.arrayContaining(['DIST_PLACE500K', 'DIST_COAST']));
    expect((await errorOf(engine.category({ q: ['(.*){6}QQQ'] }))).code).toBe('NO_MATCH');
    const bad = await errorOf(engine.category({ q: ['(unclosed'] }));
    expect(bad.code).toBe('BAD_ARGUMENT');
    expect(bad.message).toMatch(/^Invalid regular expression '\(unclosed'/);
  });

  it('rows by a unit layer over a region carry the ISO3 and ADM0_NAME of the unit, sorted by ISO3 first', async () => {
    for (const by of ['ADM1_NAME_ALT', 'ADM1_CODE_ALT']) {
      const t = await engine.getLayerTable({ var: ['ELEVATION'], iso3: ['SSA'], by: [by] });
      expect(t.rows[0].ISO3).toBeUndefined();
      expect(t.rows[0][by]).toBeUndefined();
      const units = t.rows.slice(1);
      for (const r of units) {
        expect(typeof r.ISO3).toBe('string');
        expect(typeof r.ADM0_NAME).toBe('string');
      }
      const keys = units.map((r) => `${r.ISO3}\u0000${r[by]}`);
      expect(keys).toEqual([...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      expect(new Set(keys).size).toBe(keys.length);
      expect(t.columns.slice(0, 4).map((c) => c.name)).toEqual(['ISO3', 'ADM0_NAME', 'total', by]);
    }
    const rows = (await engine.getLayer({ var: ['ELEVATION'], iso3: ['SSA'], by: ['ADM1_NAME_ALT'] })) as Row[];
    const central = rows.filter((r) => r.ADM1_NAME_ALT === 'Central');
    expect(central.length).toBeGreaterThan(1);
    expect(new Set(central.map((r) => r.ISO3)).size).toBe(central.length);
    const ken = central.find((r) => r.ISO3 === 'KEN')!;
    expect(ken.ADM0_NAME).toBe('Kenya');
    // the same unit's value per country query
    const kenRows = (await engine.getLayer({ var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] })) as Row[];
    expect(kenRows.find((r) => r.ADM1_NAME_ALT === 'Central')).toEqual(ken);
  });

  it('with wkt, iso3 is ignored (a WKT selection is a cell filter)', async () => {
    const wkt = 'POINT (36.82 -1.29)';
    const withIso = await engine.getLayerWKT({ var: ['ELEVATION'], iso3: ['RWA'], wkt });
    const without = await engine.getLayerWKT({ var: ['ELEVATION'], wkt });
    expect(withIso.rows).toHaveLength(1);
    expect(withIso.rows[0].ISO3).toBe('KEN');
    expect(withIso.rows).toEqual(without.rows);
    const cells = await engine.getLayerCells({ var: ['ELEVATION'], iso3: ['RWA'], wkt } as never);
    expect(cells.mask.reduce((s, v) => s + v, 0)).toBe(1);
    expect(cells.layers[0].values[0]).toBe(withIso.rows[0].ELEVATION);
  });

  it('similar with an unknown x is a bad argument naming x', async () => {
    const e = await errorOf(engine.similar({ x: 'Nowhere', var: ['ELEVATION'], by: 1, iso3: ['KEN'] }));
    expect(e.code).toBe('BAD_ARGUMENT');
    expect(e.message).toContain("'Nowhere'");
    const c = await errorOf(engine.similar({ x: 1, var: ['ELEVATION'], by: 0, iso3: ['KEN'] }));
    expect(c.code).toBe('BAD_ARGUMENT');
  });
});
