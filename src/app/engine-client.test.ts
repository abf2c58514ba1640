import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import { expose, wrap } from 'comlink';
import type { CallOptions, CategoryRow, Engine } from '../core/api';
import type { GetLayerArgs, TableResult, VarRecord } from '../core/types';
import { IndapiError } from '../core/errors';
import { ENGINE_CALL_LOG_MAX, engineCallTimes, engineClient, initWorker } from './engine-client';
import { createEngineWorkerApi } from '../../workers/engine-api';
import { createWorkerEngine } from '../../workers/engine-factory';
import { ENGINE_CALLS, ENGINE_METHODS, type EngineArgs, type EngineMessages, type EngineResult, type EngineWorkerApi } from '../../workers/protocol/engine';

const TABLE: TableResult = { columns: [{ name: 'ISO3', kind: 'key' }], rows: [{ ISO3: 'KEN' }] } as unknown as TableResult;

/** An engine whose calls are recorded; getLayerTable reports progress, waits for abort when asked, or throws a typed error. */
function fakeEngine(log: Array<[string, unknown, boolean]>): Engine {
  const rec = (m: string, a: unknown, o?: CallOptions) => { log.push([m, a, !!o?.signal]); };
  return {
    catalog: async (o) => { rec('catalog', undefined, o); return [{ varCode: 'ELEVATION' } as VarRecord]; },
    catalogCsv: async (o) => { rec('catalogCsv', undefined, o); return 'a,b\n'; },
    category: async (a, o) => { rec('category', a, o); return [] as CategoryRow[]; },
    describe: async (a, o) => { rec('describe', a, o); return []; },
    getLayer: async (a, o) => { rec('getLayer', a, o); return []; },
    getLayerTable: async (a, o) => {
      rec('getLayerTable', a, o);
      if (a.var[0] === 'BAD') throw new IndapiError('UNKNOWN_CODE', 'Unknown code BAD.', { codes: ['BAD'] });
      if (a.var[0] === 'OOPS') throw new TypeError('boom');
      o?.onProgress?.(1, 2);
      if (a.var[0] === 'WAIT') await new Promise((_, rej) => o?.signal?.addEventListener('abort', () => rej(new Error('stopped'))));
      return TABLE;
    },
    getLayerCells: async () => { throw new Error('unused'); },
    getLayerWKT: async (a, o) => { rec('getLayerWKT', a, o); return TABLE; },
    classify: async (a, o) => { rec('classify', a, o); return TABLE; },
    similar: async (a, o) => { rec('similar', a, o); return TABLE; },
  };
}

const ports: MessagePort[] = [];
afterEach(() => { ports.splice(0).forEach((p) => p.close()); });

/** The page's client of a worker API served over a MessageChannel (as the real worker is, through Comlink). */
function connect(engine: Engine): Engine {
  const ch = new MessageChannel();
  ports.push(ch.port1, ch.port2);
  const api = createEngineWorkerApi(() => engine);
  api.init('http://x/data/');
  expose(api, ch.port2);
  return engineClient(wrap<EngineWorkerApi>(ch.port1));
}

describe('engine worker message map', () => {
  test('is derived from Engine: arguments and results per method', () => {
    expectTypeOf<EngineMessages['getLayerTable']>().toEqualTypeOf<{ args: GetLayerArgs; result: TableResult }>();
    expectTypeOf<EngineArgs<'catalog'>>().toEqualTypeOf<undefined>();
    expectTypeOf<EngineResult<'catalog'>>().toEqualTypeOf<VarRecord[]>();
    expectTypeOf<EngineArgs<'similar'>>().toEqualTypeOf<Parameters<Engine['similar']>[0]>();
  });

  test('lists every method once', () => {
    expect([...ENGINE_METHODS].sort()).toEqual(['catalog', 'catalogCsv', 'catchment', 'category', 'classify', 'describe', 'getLayer', 'getLayerCells', 'getLayerTable', 'getLayerWKT', 'similar']);
  });

  test('an engine without catchment answers NOT_FOUND, not a TypeError', async () => {
    await expect(ENGINE_CALLS.catchment(fakeEngine([]), { xy: [] } as never)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('engine client over the worker API', () => {
  test('methods with and without arguments reach the engine with their arguments and a signal', async () => {
    const log: Array<[string, unknown, boolean]> = [];
    const e = connect(fakeEngine(log));
    expect(await e.catalog()).toEqual([{ varCode: 'ELEVATION' }]);
    expect(await e.catalogCsv()).toBe('a,b\n');
    expect(await e.describe({ var: ['ELEVATION'] })).toEqual([]);
    expect(await e.getLayerTable({ var: ['ELEVATION'], iso3: ['KEN'] })).toEqual(TABLE);
    expect(log).toEqual([['catalog', undefined, true], ['catalogCsv', undefined, true], ['describe', { var: ['ELEVATION'] }, true], ['getLayerTable', { var: ['ELEVATION'], iso3: ['KEN'] }, true]]);
  });

  test('progress comes back; a typed error keeps its code and detail; an untyped one is INTERNAL', async () => {
    const e = connect(fakeEngine([]));
    const seen: Array<[number, number]> = [];
    await e.getLayerTable({ var: ['ELEVATION'] }, { onProgress: (d, t) => seen.push([d, t]) });
    await expect.poll(() => seen).toEqual([[1, 2]]);
    const bad = await e.getLayerTable({ var: ['BAD'] }).catch((x: unknown) => x);
    expect(bad).toBeInstanceOf(IndapiError);
    expect(bad).toMatchObject({ code: 'UNKNOWN_CODE', message: 'Unknown code BAD.', detail: { codes: ['BAD'] } });
    await expect(e.getLayerTable({ var: ['OOPS'] })).rejects.toMatchObject({ code: 'INTERNAL', message: 'boom' });
  });

  test('each call is logged with its method and its start and answer times in the page, failures too, the last 500 kept', async () => {
    const e = connect(fakeEngine([]));
    const t0 = performance.now();
    await e.getLayerTable({ var: ['ELEVATION'] });
    await e.getLayerTable({ var: ['BAD'] }).catch(() => undefined);
    const calls = engineCallTimes(t0);
    expect(calls.map((c) => c.method)).toEqual(['getLayerTable', 'getLayerTable']);
    for (const c of calls) expect(c.endMs).toBeGreaterThanOrEqual(c.startMs);
    expect(calls[1].startMs).toBeGreaterThanOrEqual(calls[0].endMs);
    expect(engineCallTimes(performance.now() + 1)).toEqual([]);
    for (let i = 0; i < ENGINE_CALL_LOG_MAX + 5; i++) await e.catalogCsv();
    expect(engineCallTimes()).toHaveLength(ENGINE_CALL_LOG_MAX);
    expect(engineCallTimes(t0).some((c) => c.method === 'getLayerTable')).toBe(false);
  });

  test('an abort cancels the call in the worker: ABORTED', async () => {
    const e = connect(fakeEngine([]));
    const ac = new AbortController();
    const p = e.getLayerTable({ var: ['WAIT'] }, { signal: ac.signal, onProgress: () => ac.abort() });
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    const before = new AbortController();
    before.abort();
    await expect(e.catalog({ signal: before.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  test('an unknown method name from elsewhere is NOT_FOUND', async () => {
    const api = createEngineWorkerApi(() => fakeEngine([]));
    api.init('http://x/data/');
    const out = await api.call(1, 'nope' as 'catalog', undefined);
    expect(out).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});

describe("the page's bundle texts handed to the engine worker", () => {
  const DIR = join(__dirname, '../../tests/engine/fixtures/bundle');
  afterEach(() => { vi.unstubAllGlobals(); });

  /** The worker's fetch over the fixture bundle (text files whole, COGs by range), recording the paths asked for. */
  function fixtureFetch(asked: string[]) {
    return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const rel = new URL(String(input)).pathname.replace(/^\/data\//, '');
      asked.push(rel);
      const bytes = readFileSync(join(DIR, rel));
      const range = new Headers(init?.headers).get('range')?.match(/bytes=(\d+)-(\d+)/);
      if (!range) return new Response(bytes);
      const [a, b] = [Number(range[1]), Math.min(Number(range[2]), bytes.length - 1)];
      return new Response(bytes.subarray(a, b + 1), { status: 206, headers: { 'Content-Range': `bytes ${a}-${b}/${bytes.length}` } });
    };
  }

  test("the real engine takes the catalog texts from the page, waits for one the page is still reading, and fetches none of them", async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', fixtureFetch(asked));
    const ch = new MessageChannel();
    ports.push(ch.port1, ch.port2);
    expose(createEngineWorkerApi(createWorkerEngine), ch.port2);
    const remote = wrap<EngineWorkerApi>(ch.port1);
    let handViCsv!: (t: string) => void;
    const page = (rel: string) => Promise.resolve(readFileSync(join(DIR, rel), 'utf8'));
    initWorker(remote, 'http://x/data/', false, [
      { rel: 'vi.csv', text: new Promise<string>((res) => (handViCsv = res)) }, // still being read by the page
      { rel: 'iso.csv', text: page('iso.csv') },
      { rel: 'manifest.json', text: page('manifest.json') },
      { rel: 'series/vi.csv', text: Promise.reject(new IndapiError('NOT_FOUND', 'not listed')) },
    ]);
    const e = engineClient(remote);
    const table = e.getLayerTable({ var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] } as GetLayerArgs);
    await new Promise((r) => setTimeout(r, 20));
    expect(asked.filter((p) => !p.endsWith('.tif') && !p.startsWith('classes/'))).toEqual([]); // waits for the page's vi.csv
    handViCsv(readFileSync(join(DIR, 'vi.csv'), 'utf8'));
    const t = await table;
    expect(t.rows.length).toBeGreaterThan(0);
    expect(asked.some((p) => p === 'cog/ELEVATION.tif')).toBe(true);
    expect(asked.filter((p) => ['vi.csv', 'iso.csv', 'manifest.json', 'series/vi.csv'].includes(p))).toEqual([]);
  });

  test("a text the page could not read is read by the worker itself", async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', fixtureFetch(asked));
    const api = createEngineWorkerApi(createWorkerEngine);
    const ch = new MessageChannel();
    ports.push(ch.port1, ch.port2);
    expose(api, ch.port2);
    const remote = wrap<EngineWorkerApi>(ch.port1);
    initWorker(remote, 'http://x/data/', false, [{ rel: 'vi.csv', text: Promise.reject(new IndapiError('OFFLINE', 'offline')) }]);
    const records = await engineClient(remote).catalog();
    expect(records.some((r) => r.varCode === 'ELEVATION')).toBe(true);
    expect(asked).toContain('vi.csv');
  });
});
