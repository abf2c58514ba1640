/**
 * The zonal statistics (src/core/engine/zonal.ts) against R on the bundle's own cells
 * (public/data), one R process for all (tests/interop/zonal-stats.R): Kenya's ADM1 units with
 * whole cells (base `quantile(type = 7)`, `var()`, `weighted.mean()`, `hist()`, `table()`,
 * `terra::cellSize`), and polygons with exact coverage (`terra::extract(exact = TRUE)`
 * fractions, `Hmisc::wtd.var(method = "ML")`, `Hmisc::wtd.quantile`). Each value is compared
 * within the rounding of its column (half a unit of its last decimal).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import type { Row } from '../../src/core/types';

const DATA = join(__dirname, '../../public/data');
const engine = createNodeEngine(DATA);
const Q = [0.1, 0.5, 0.9];
const EDGES = [-500, 500, 1000, 1500, 2000, 3000, 6000];
// polygons inside Kenya (test shapes), off the cell edges
const WKT = [
  'POLYGON((36.03 -0.97, 37.61 -1.02, 37.9 0.41, 36.4 0.62, 36.03 -0.97))',
  'POLYGON((37.52 0.51, 38.49 0.53, 38.37 1.63, 37.61 1.48, 37.52 0.51))',
];
const COMMON = { var: ['ELEVATION', 'ELEV_ZONE'], weights: 'POP_MODEL', q: Q };
const STATS = ['count', 'variance', 'stdev', 'cv', 'quantile', 'weighted_mean', 'weighted_sum', 'variety', 'valid_percent', 'nodata', 'area_km2', 'frac', 'weighted_frac'];
let R: any;
let units: Row[], polys7: Row[], polysW: Row[], histUnits: Row[], histPolys: Row[];
let zoneLabel: Map<number, string>, unitValue: Map<string, number>;

/**
 * |ours - R| within half a unit of the last decimal the column keeps (dec), plus a relative
 * slack: 1e-9 for whole cells; 5e-7 with exact coverage, whose fractions the engine keeps as
 * Float32 (about 6e-8 relative each) where terra keeps doubles.
 */
function near(ours: unknown, r: number, dec: number, what: string, rel = 1e-9): void {
  expect(typeof ours, what).toBe('number');
  expect(Math.abs((ours as number) - r), `${what}: ours ${ours}, R ${r}`).toBeLessThanOrEqual(0.5 * 10 ** -dec + rel * Math.max(1, Math.abs(r)));
}
const EXACT_REL = 5e-7;

beforeAll(async () => {
  const cat = await engine.loadCatalog();
  zoneLabel = new Map((await cat.classes('ELEV_ZONE')).map((c) => [c.value, c.label]));
  unitValue = new Map((await cat.classes('ADM1_CODE_ALT')).map((c) => [c.label, c.value]));
  const ken = cat.isoEntry('KEN')!;
  const isoValue = (await cat.classes('ISO3')).find((c) => c.label === 'KEN')!.value;
  const dir = mkdtempSync(join(tmpdir(), 'zonal-'));
  const cfg = join(dir, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ dir: DATA, bbox: [ken.bboxDeg[0], ken.bboxDeg[2], ken.bboxDeg[1], ken.bboxDeg[3]], isoValue, var: 'ELEVATION', weights: 'POP_MODEL', class: 'ELEV_ZONE', wkt: WKT, q: Q, edges: EDGES }));
  const run = execFileSync('Rscript', [join(__dirname, 'zonal-stats.R'), cfg], { encoding: 'utf8', maxBuffer: 1 << 26 });
  R = JSON.parse(run);
  const byUnits = { ...COMMON, iso3: ['KEN'], by: ['ADM1_CODE_ALT'] };
  units = ((await engine.getLayer({ ...byUnits, stats: STATS })) as Row[]).filter((r) => r.ADM1_CODE_ALT);
  histUnits = ((await engine.getLayer({ ...byUnits, var: ['ELEVATION'], stats: ['histogram'], bins: EDGES })) as Row[]).filter((r) => r.ADM1_CODE_ALT);
  const domains = Object.fromEntries(WKT.map((w, i) => [`p${i + 1}`, w]));
  polys7 = (await engine.classify({ ...COMMON, domains, exact: true, stats: STATS })).rows;
  polysW = (await engine.classify({ ...COMMON, domains, exact: true, stats: ['quantile'], quantileType: 'weighted' })).rows;
  histPolys = (await engine.classify({ var: ['ELEVATION'], domains, exact: true, stats: ['histogram'], bins: EDGES })).rows;
}, 300_000);

/** Pairs of (our row, R's zone, name, relative slack): Kenya's units, then the polygons. */
function pairs(): Array<[Row, any, string, number]> {
  const out: Array<[Row, any, string, number]> = [];
  expect(units.length).toBe(R.units.length);
  for (const u of units) out.push([u, R.units.find((z: any) => z.z === unitValue.get(u.ADM1_CODE_ALT as string)), String(u.ADM1_CODE_ALT), 1e-9]);
  expect(polys7.length).toBe(R.polys.length);
  polys7.forEach((p, i) => out.push([p, R.polys[i], String(p.name), EXACT_REL]));
  return out;
}

describe('zonal statistics vs R on the bundle\'s cells', () => {
  it('exact coverage: count (sum of fractions with a value) and nodata equal terra::extract(exact = TRUE)', () => {
    for (const [o, r, w, rel] of pairs()) {
      near(o.ELEVATION_count, r.count, 4, `${w} count`, rel);
      near(o.ELEVATION_nodata ?? 0, r.nodata, 4, `${w} nodata`, rel);
    }
  });
  it('variance and stdev: population variance (Hmisc::wtd.var(method = "ML"); var(x) (n-1)/n for whole cells); cv', () => {
    for (const [o, r, w, rel] of pairs()) {
      near(o.ELEVATION_variance, r.variance, 2, `${w} variance`, rel);
      near(o.ELEVATION_stdev, Math.sqrt(r.variance), 2, `${w} stdev`, rel);
      near(o.ELEVATION_cv, Math.sqrt(r.variance) / r.mean, 6, `${w} cv`, rel);
    }
  });
  it('quantile: R quantile(type = 7) by default; quantile_type = "weighted" as Hmisc::wtd.quantile', () => {
    for (const [o, r, w, rel] of pairs()) Q.forEach((p, k) => near(o[`ELEVATION_q${p * 100}`], r.q7[k], 0, `${w} q${p}`, rel));
    polysW.forEach((o, i) => Q.forEach((p, k) => near(o[`ELEVATION_q${p * 100}`], R.polys[i].qw[k], 0, `${o.name} weighted q${p}`, EXACT_REL)));
    // the polygons' weighted quantiles differ from type 7 somewhere (coverage matters)
    expect(polysW.some((o, i) => Q.some((p) => o[`ELEVATION_q${p * 100}`] !== polys7[i][`ELEVATION_q${p * 100}`]))).toBe(true);
  });
  it('weighted_mean and weighted_sum with weights = POP_MODEL (R weighted.mean(x, f * W), sum(x f W))', () => {
    for (const [o, r, w, rel] of pairs()) {
      near(o.ELEVATION_weighted_mean, r.weighted_mean, 0, `${w} weighted_mean`, rel);
      near(o.ELEVATION_weighted_sum, r.weighted_sum, 0, `${w} weighted_sum`, rel);
    }
  });
  it('variety, valid_percent, area_km2 (terra::cellSize, km2)', () => {
    for (const [o, r, w, rel] of pairs()) {
      expect(o.ELEVATION_variety, w).toBe(r.variety);
      expect(o.ELEV_ZONE_variety, w).toBe(r.class_variety);
      near(o.ELEVATION_valid_percent, r.valid_percent, 4, `${w} valid_percent`, rel);
      // Snyder's quadrangle areas against terra's geodesic cell polygons: equal to 1e-6
      expect(Math.abs((o.ELEVATION_area_km2 as number) / r.area_km2 - 1), `${w} area_km2`).toBeLessThan(1e-6);
    }
  });
  it('frac and weighted_frac of ELEV_ZONE: shares as R tapply(f, class, sum) / sum(f), summing to 1', () => {
    for (const [o, r, w, rel] of pairs()) {
      for (const op of ['frac', 'weighted_frac']) {
        let total = 0;
        for (const [value, label] of zoneLabel) {
          const ours = o[`ELEV_ZONE_${op}_${label}`] as number;
          total += ours;
          near(ours, r[op][String(value)] ?? 0, 6, `${w} ${op} ${label}`, rel);
        }
        expect(total).toBeCloseTo(1, 5);
      }
    }
  });
  it('histogram: one row per bin, counts as R hist(x, breaks)$counts (whole cells) and sum(f) per bin (exact)', () => {
    const bins = EDGES.length - 1;
    expect(histUnits.length).toBe(R.units.length * bins);
    for (const u of R.units) {
      const label = [...unitValue].find(([, v]) => v === u.z)![0];
      const rows = histUnits.filter((x) => x.ADM1_CODE_ALT === label);
      expect(rows.map((x) => x.bin)).toEqual(Array.from({ length: bins }, (_, k) => k + 1));
      expect(rows.map((x) => x.ELEVATION_histogram)).toEqual(u.hist_plain);
      expect(rows.map((x) => [x.ELEVATION_bin_lower, x.ELEVATION_bin_upper])).toEqual(EDGES.slice(0, -1).map((e, k) => [e, EDGES[k + 1]]));
    }
    R.polys.forEach((p: any, i: number) => {
      const rows = histPolys.filter((x) => x.name === `p${i + 1}`);
      rows.forEach((x, k) => near(x.ELEVATION_histogram, p.hist[k], 4, `p${i + 1} bin ${k + 1}`, EXACT_REL));
    });
  });
});
