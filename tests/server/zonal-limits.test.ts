/**
 * The zonal statistics' arguments and the bulk limits of `classify`: each refused before any
 * work (the fixture engine counts its calls), 400 text/plain naming the argument (413 for
 * vertices, as `wkt`'s).
 */
import { expect, test } from 'vitest';
import type { Engine } from '../../src/core/api';
import { createHandler } from '../../src/contract/handler';
import { DEFAULT_LIMITS } from '../../src/contract/limits';
import { createMemorySessionStore } from '../../src/contract/sessions';
import { createFakeEngine, fakeGenFile } from '../contract/fake-engine.fixture';

const R = 'http://localhost/ocpu/library/indapi3/R';

function setup() {
  const inner = createFakeEngine();
  let n = 0;
  const engine = new Proxy(inner, {
    get(t, k) {
      const v = (t as unknown as Record<string | symbol, unknown>)[k];
      if (typeof v !== 'function' || k === 'category' || k === 'describe') return v;
      return (...a: unknown[]) => { n++; return (v as (...x: unknown[]) => unknown).apply(t, a); };
    },
  }) as Engine;
  const handle = createHandler({ engine, genFile: fakeGenFile, sessions: createMemorySessionStore() });
  const post = (method: string, body: unknown) =>
    handle(new Request(`${R}/${method}/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  return { post, calls: () => n };
}

/** A FeatureCollection of n small squares (fixture shapes on a lattice), each with `v` vertices. */
function squares(n: number, v = 5) {
  return {
    type: 'FeatureCollection',
    features: Array.from({ length: n }, (_, i) => {
      const x = 10 + (i % 100) * 0.2, y = -10 + Math.floor(i / 100) * 0.2;
      const ring = Array.from({ length: v - 1 }, (_, k) => [x + 0.1 * Math.cos((2 * Math.PI * k) / (v - 1)), y + 0.1 * Math.sin((2 * Math.PI * k) / (v - 1))]);
      return { type: 'Feature', properties: { name: `p${i}` }, geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] } };
    }),
  };
}

test.each([
  ['getLayer', { var: 'ELEVATION', stats: ['weighted_mean'] }, 'weights'],
  ['indapi', { var: 'ELEVATION', stats: 'quantile', q: [0.5, 1.5] }, 'q'],
  ['getLayerWKT', { var: 'ELEVATION', wkt: 'POINT(36 -1)', stats: 'quantile', quantile_type: 'linear' }, 'quantile_type'],
  ['classify', { var: 'ELEVATION', domains: { a: 'POINT(36 -1)' }, stats: 'histogram', bins: [0] }, 'bins'],
  ['classify', { var: 'ELEVATION', domains: { a: 'POINT(36 -1)' }, stats: 'histogram', range: [3, 1] }, 'range'],
])('%s with a bad zonal argument answers 400 naming it before any work', async (method, body, name) => {
  const { post, calls } = setup();
  const r = await post(method, body);
  expect(r.status).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/text\/plain/);
  expect(await r.text()).toContain(`'${name}'`);
  expect(calls()).toBe(0);
});

test(`classify takes ${DEFAULT_LIMITS.maxDomains} features; one more answers 400 naming domains before any work`, async () => {
  expect(DEFAULT_LIMITS.maxDomains).toBe(10_000);
  const { post, calls } = setup();
  const over = await post('classify', { var: 'ELEVATION', domains: squares(10_001) });
  expect(over.status).toBe(400);
  expect(await over.text()).toMatch(/^argument 'domains' has 10001 shapes \(features or WKT entries, collections by member\); the limit is 10000\./);
  expect(calls()).toBe(0);
  const at = await post('classify', { var: 'ELEVATION', domains: squares(10_000) });
  expect(at.status).toBe(201);
  expect(calls()).toBe(1);
});

test('classify over 1,000,000 vertices in all answers 413 naming domains before any work', async () => {
  const { post, calls } = setup();
  // integer coordinates keep the body under the 10 MB request limit
  const ring = [...Array.from({ length: 500 }, (_, k) => [k % 7, k % 5]), [0, 0]];
  const domains = { type: 'FeatureCollection', features: Array.from({ length: 2_000 }, () => ({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } })) };
  const r = await post('classify', { var: 'ELEVATION', domains });
  expect(r.status).toBe(413);
  expect(await r.text()).toMatch(/^argument 'domains' has 1002000 vertices; the limit is 1000000\./);
  expect(calls()).toBe(0);
});
