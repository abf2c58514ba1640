import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { coverageCache } from '../../src/core/engine/bulk';
import type { Row } from '../../src/core/types';

const DATA = join(__dirname, '../../public/data');
const VARS = ['ELEVATION', 'ELEV_ZONE', 'PN14_POP', 'POP_MODEL', 'SLOPE'];
const STATS = ['mean', 'sd', 'p50', 'count', 'frac', 'quantile', 'variance', 'area_km2', 'valid_percent'];

// 24 small polygons inside Kenya (fixture shapes, made up here), and a sliver
const domains: Record<string, string> = {};
for (let i = 0; i < 24; i++) {
  const x = 35.2 + (i % 6) * 0.55 + i * 0.003, y = -0.9 + Math.floor(i / 6) * 0.45;
  domains[`k${i}`] = `POLYGON((${x} ${y}, ${x + 0.4} ${y + 0.05}, ${x + 0.35} ${y + 0.38}, ${x + 0.02} ${y + 0.33}, ${x} ${y}))`;
}
domains.sliver = 'POLYGON((36 -1, 36.002 -1, 36.002 -0.9, 36 -1))';

const values = (r: Row) => Object.fromEntries(Object.entries(r).filter(([k]) => !['name', 'feature', 'ISO3', 'ADM0_NAME'].includes(k)));

describe('classify over many domains at once (gathered frame, cached coverage)', () => {
  it('refuses frac over continuous layers only with a 400 naming stats', async () => {
    const e = createNodeEngine(DATA);
    await expect(e.classify({ var: ['ELEVATION', 'SLOPE'], domains, stats: ['frac'] })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/^'stats' asks for frac, which applies to class layers only, but ELEVATION, SLOPE are continuous/) });
    await expect(e.getLayer({ var: ['ELEVATION'], iso3: ['KEN'], stats: ['weighted_frac'], weights: 'POP_MODEL' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining("'stats'") });
    // with a class layer beside it, the class layer gets its shares and the continuous one none
    const mixed = await e.classify({ var: ['ELEVATION', 'ELEV_ZONE'], domains: { k0: domains.k0 }, stats: ['frac'] });
    const fracCols = mixed.columns.map((c) => c.name).filter((n) => n.includes('_frac_'));
    expect(fracCols.length).toBeGreaterThan(0);
    expect(fracCols.every((n) => n.startsWith('ELEV_ZONE_frac_'))).toBe(true);
    await e.store.close();
  });

  it.each([false, true])('gives each domain the values one query per domain gives (getLayerWKT over that shape alone; exact %s)', async (exact) => {
    const e = createNodeEngine(DATA);
    const all = await e.classify({ var: VARS, domains, exact, stats: STATS });
    expect(all.rows.map((r) => r.name)).toEqual(Object.keys(domains));
    for (const [name, wkt] of Object.entries(domains)) {
      const one = await e.getLayerWKT({ var: VARS, wkt, exact, stats: STATS });
      expect(one.rows.length).toBe(1); // inside one country
      expect(values(all.rows.find((r) => r.name === name)!)).toEqual(values(one.rows[0]));
    }
    expect(all.columns.filter((c) => c.role === 'value').map((c) => c.name)).toEqual(
      (await e.getLayerWKT({ var: VARS, wkt: domains.k0, exact, stats: STATS })).columns.filter((c) => c.role === 'value').map((c) => c.name));
    await e.store.close();
  });

  it('computes each geometry\'s coverage once: a second call over the same polygons (other layers, other statistics) reuses it', async () => {
    const e = createNodeEngine(DATA);
    const wkts = Object.values(domains).map((w) => w.replace('POLYGON((', 'POLYGON(( ')); // same shapes, new texts: keyed by geometry, not text
    await e.classify({ var: ['ELEVATION'], domains: wkts, exact: true, stats: ['mean'] });
    const h = coverageCache.hits, m = coverageCache.misses;
    const again = await e.classify({ var: ['SLOPE', 'ELEV_ZONE'], domains: wkts, exact: true, stats: ['frac', 'stdev'] });
    expect(coverageCache.hits - h).toBe(wkts.length);
    expect(coverageCache.misses - m).toBe(0);
    expect(again.rows.length).toBe(wkts.length);
    const shares = Object.entries(again.rows[0]).filter(([k]) => k.startsWith('ELEV_ZONE_frac_')).reduce((s, [, v]) => s + (v as number), 0);
    expect(shares).toBeCloseTo(1, 5);
    await e.store.close();
  });
});
