/**
 * Limits of a call (issue 16, item 3 and the limits of "What to build"): checked before any
 * work, answered 400 text/plain naming the argument with the `In call:` line; deep nesting
 * never overflows the stack (500). The handler runs on a fixture engine that counts the
 * calls it gets, so "before any work" is checked by state.
 */
import { expect, test } from 'vitest';
import type { Engine } from '../../src/core/api';
import { createHandler } from '../../src/contract/handler';
import { deparse } from '../../src/contract/deparse';
import { checkValueLimits, DEFAULT_LIMITS, nestingDepth, wktEdgeCells, wktShapes, wktSize } from '../../src/contract/limits';
import { createMemorySessionStore } from '../../src/contract/sessions';
import { createFakeEngine, fakeGenFile } from '../contract/fake-engine.fixture';

const R = 'http://localhost/ocpu/library/indapi3/R';

/** The fixture engine, counting the calls of its query methods. */
function countingEngine(): { engine: Engine; calls: () => number } {
  const inner = createFakeEngine();
  let n = 0;
  const engine = new Proxy(inner, {
    get(t, k) {
      const v = (t as unknown as Record<string | symbol, unknown>)[k];
      if (typeof v !== 'function' || k === 'category' || k === 'describe') return v;
      return (...a: unknown[]) => {
        n++;
        return (v as (...x: unknown[]) => unknown).apply(t, a);
      };
    },
  });
  return { engine, calls: () => n };
}

function setup() {
  const e = countingEngine();
  const handle = createHandler({ engine: e.engine, genFile: fakeGenFile, sessions: createMemorySessionStore() });
  const post = (method: string, body: string, type = 'application/json') =>
    handle(new Request(`${R}/${method}/json`, { method: 'POST', headers: { 'Content-Type': type }, body }));
  return { ...e, post };
}

test('JSON nested 10,000 deep answers 400 naming the argument, not 500', async () => {
  const { post, calls } = setup();
  const deep = '['.repeat(10_000) + ']'.repeat(10_000);
  const r = await post('indapi', `{"var": "ELEVATION", "by": ${deep}}`);
  expect(r.status).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/text\/plain/);
  const t = await r.text();
  expect(t).toMatch(/^argument 'by' is nested more than 64 levels deep/);
  expect(t).toContain('\n\nIn call:\nindapi(var = "ELEVATION", by = ');
  expect(t.length).toBeLessThan(4000);
  expect(calls()).toBe(0);
});

test('a 5,000-deep GEOMETRYCOLLECTION answers 400 naming wkt', async () => {
  const { post, calls } = setup();
  const wkt = 'GEOMETRYCOLLECTION('.repeat(5000) + 'POINT(36 -1)' + ')'.repeat(5000);
  const r = await post('indapi', JSON.stringify({ var: 'ELEVATION', wkt }));
  expect(r.status).toBe(400);
  const t = await r.text();
  expect(t).toMatch(/^argument 'wkt' has WKT nested 5001 levels deep; the limit is 32\./);
  expect(t).toContain('In call:\nindapi(');
  expect(calls()).toBe(0);
});

test('1e6 by breaks (a 7 MB body) answer 400 naming by before any work', async () => {
  const { post, calls } = setup();
  const breaks = Array.from({ length: 1_000_000 }, (_, i) => i);
  const r = await post('indapi', JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', by: { ELEVATION: breaks } }));
  expect(r.status).toBe(400);
  expect(await r.text()).toMatch(/^argument 'by' has 1000000 breaks or classes for ELEVATION; the limit is 1000\.\n\nIn call:\n/);
  expect(calls()).toBe(0);
});

test('too many by codes, and deep R lists in a form body, answer 400', async () => {
  const { post } = setup();
  const many = await post('getLayer', JSON.stringify({ var: 'ELEVATION', by: Array.from({ length: 11 }, (_, i) => `C${i}`) }));
  expect(many.status).toBe(400);
  expect(await many.text()).toMatch(/^argument 'by' has 11 codes; the limit is 10\./);
  const deepForm = await post('classify', `var='ELEVATION'&domains=${encodeURIComponent('list(' + 'list('.repeat(90) + '1' + ')'.repeat(91))}`, 'application/x-www-form-urlencoded');
  expect(deepForm.status).toBe(400);
});

test('a per-cell answer over the cell limit answers 400 pointing to a file format', () => {
  const rows = Array.from({ length: DEFAULT_LIMITS.maxCellRows + 1 }, (_, i) => ({ CELL5M: i }));
  expect(() => checkValueLimits(rows, 'indapi(var = "ELEVATION", collapse = FALSE)', true)).toThrow(/more than 100000 .*format = "csv"/);
  expect(() => checkValueLimits(rows, 'x()', false, 10)).not.toThrow();
  expect(() => checkValueLimits([], 'x()', false, DEFAULT_LIMITS.maxValueBytes + 1)).toThrow(/format = "csv"/);
});

test('depth and WKT scans need no recursion; deparse cuts deep values', () => {
  let v: unknown = 1;
  for (let i = 0; i < 100_000; i++) v = [v, 2];
  expect(nestingDepth(v, 64)).toBe(65);
  expect(wktSize('MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)))')).toEqual({ vertices: 4, depth: 3 });
  expect(deparse(v)).toContain('...');
});

test('catchment: 200,000 minutes breaks (issue 25.1) answer 400 naming minutes before any work', async () => {
  const { post, calls } = setup();
  const minutes = Array.from({ length: 200_000 }, (_, i) => i);
  const t0 = performance.now();
  const r = await post('catchment', JSON.stringify({ xy: [36.82, -1.29], minutes, var: ['PN14_POP', 'ELEVATION', 'AREA_TOTAL'] }));
  expect(r.status).toBe(400);
  const t = await r.text();
  expect(t).toMatch(/^argument 'minutes' has 200000 breaks; the limit is 100\./);
  expect(calls()).toBe(0);
  expect(performance.now() - t0).toBeLessThan(1000);
  // 100 breaks pass the check (the fixture engine has no catchment: 400 from the method, not the limit)
  const ok = await post('catchment', JSON.stringify({ xy: [36.82, -1.29], minutes: minutes.slice(0, 100) }));
  expect(await ok.text()).not.toMatch(/limit is 100/);
});

/** A zigzag polygon of about `n` vertices whose teeth run 4 degrees north-south (issue 25 item 1). */
function zigzag(n: number): string {
  const pts: string[] = [];
  for (let i = 0; i < n - 3; i++) pts.push(`${(34 + (6 * i) / n).toFixed(6)} ${i % 2 ? 3 : -1}`);
  pts.push('40 -2', '34 -2', pts[0]);
  return `POLYGON((${pts.join(',')}))`;
}

test('a 99,990-vertex zigzag (exact = TRUE) and 50,000 points in a GEOMETRYCOLLECTION answer 400 naming the argument, before any work (issue 25 item 1)', async () => {
  const { post, calls } = setup();
  const t0 = performance.now();
  const z = await post('getLayerWKT', JSON.stringify({ var: 'ELEVATION', wkt: zigzag(99_990), exact: true }));
  expect(z.status).toBe(400);
  expect(await z.text()).toMatch(/^argument 'wkt' has polygon edges crossing \d+ grid cells in all \(a zigzag or a very detailed outline\); the limit is 2000000\./);
  const pts = Array.from({ length: 50_000 }, (_, i) => `POINT(${34 + (i % 250) * 0.024} ${-1 + Math.floor(i / 250) * 0.02})`);
  const g = await post('getLayerWKT', JSON.stringify({ var: 'ELEVATION', wkt: `GEOMETRYCOLLECTION(${pts.join(',')})` }));
  expect(g.status).toBe(400);
  expect(await g.text()).toMatch(/^argument 'wkt' has 50000 shapes, each summarised on its own; the limit is 5000\./);
  const d = await post('classify', JSON.stringify({ var: 'ELEVATION', domains: pts }));
  expect(d.status).toBe(400);
  expect(await d.text()).toMatch(/^argument 'domains' has 50000 shapes/);
  expect(calls()).toBe(0);
  expect(performance.now() - t0).toBeLessThan(5000); // generous on a busy machine; measured ~0.3 s
  // ordinary shapes pass: a MULTIPOINT of the same 50,000 points is one shape, a 1,000-vertex outline crosses few cells
  const mp = await post('getLayerWKT', JSON.stringify({ var: 'ELEVATION', wkt: `MULTIPOINT(${pts.map((p) => p.slice(6, -1)).join(',')})` }));
  expect(mp.status).not.toBe(400);
  const ring = Array.from({ length: 1000 }, (_, i) => `${(37 + 2 * Math.cos((2 * Math.PI * i) / 1000)).toFixed(5)} ${(0.5 + 2 * Math.sin((2 * Math.PI * i) / 1000)).toFixed(5)}`);
  const circle = await post('getLayerWKT', JSON.stringify({ var: 'ELEVATION', wkt: `POLYGON((${ring.join(',')},${ring[0]}))`, exact: true }));
  expect(circle.status).not.toBe(400);
});

test('wktEdgeCells counts the cells polygon edges span, wktShapes the members of a collection', () => {
  expect(wktEdgeCells('POLYGON((0 0, 1 0, 1 1, 0 0))')).toBe(12 + 1 + 12 + 1 + 24 + 1);
  expect(wktEdgeCells('MULTIPOINT(0 0, 10 10)')).toBe(0);
  expect(wktEdgeCells('GEOMETRYCOLLECTION(POINT(0 0), POLYGON((0 0, 0 1, 1 1, 0 0)), POINT(5 5))')).toBe(12 + 1 + 12 + 1 + 24 + 1);
  expect(wktEdgeCells('POLYGON((0 0, 1e0 0, 0 1, 0 0),(0.2 0.2, 0.3 0.2, 0.2 0.3, 0.2 0.2))')).toBeCloseTo(12 + 1 + 24 + 1 + 12 + 1 + (1.2 + 1 + 2.4 + 1 + 1.2 + 1));
  expect(wktShapes('GEOMETRYCOLLECTION(POINT(0 0), POLYGON((0 0, 0 1, 1 1, 0 0)), MULTIPOINT(1 1, 2 2))')).toBe(3);
  expect(wktShapes('MULTIPOINT(1 1, 2 2)')).toBe(1);
});
