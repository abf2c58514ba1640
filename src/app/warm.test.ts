import { expect, test } from 'vitest';
import type { CallOptions, Engine } from '../core/api';
import type { GetLayerArgs, VarRecord } from '../core/types';
import { parseHash } from './url-state';
import { warmEngine, warmQuery } from './warm';

const codes = new Set(['AREA_TOTAL', 'ADM1_NAME_ALT', 'ADM2_NAME_ALT', 'ELEV_ZONE', 'ELEVATION']);

test("the warm-up reads the cell-area layer by the link's domain over the link's countries", () => {
  expect(warmQuery(parseHash('#v=AREA_TOTAL&iso=ETH&panel=table&tv=AREA_TOTAL&tr=ADM1_NAME_ALT&tc=ELEV_ZONE'), codes))
    .toEqual({ var: ['AREA_TOTAL'], iso3: ['ETH'], by: ['ADM1_NAME_ALT'] });
  expect(warmQuery(parseHash('#v=ELEVATION&iso=KEN,TZA&by=ADM2_NAME_ALT'), codes)?.by).toEqual(['ADM2_NAME_ALT']);
  // the table's rows win over the summary's by; an unknown domain falls back to ADM1
  expect(warmQuery(parseHash('#iso=KEN&by=ADM2_NAME_ALT&panel=table&tr=ELEV_ZONE'), codes)?.by).toEqual(['ELEV_ZONE']);
  expect(warmQuery(parseHash('#iso=KEN&by=NOPE'), codes)?.by).toEqual(['ADM1_NAME_ALT']);
});

test('no warm-up read without a country, or when the bundle lacks the layers', () => {
  expect(warmQuery(parseHash('#v=ELEVATION&panel=compare'), codes)).toBeNull();
  expect(warmQuery(parseHash('#iso=KEN'), new Set(['ADM1_NAME_ALT']))).toBeNull();
  expect(warmQuery(parseHash('#iso=KEN&by=X'), new Set(['AREA_TOTAL']))).toBeNull();
});

test('warmEngine reads the catalog, then the layers, and swallows a failed read', async () => {
  const calls: string[] = [];
  const engine = {
    catalog: async () => { calls.push('catalog'); return [...codes].map((varCode) => ({ varCode }) as VarRecord); },
    getLayer: async (a: GetLayerArgs, _o?: CallOptions) => { calls.push(`getLayer ${a.var} ${a.iso3} ${JSON.stringify(a.by)}`); throw new Error('offline'); },
  } as unknown as Engine;
  await warmEngine(engine, parseHash('#iso=RWA'));
  expect(calls).toEqual(['catalog', 'getLayer AREA_TOTAL RWA ["ADM1_NAME_ALT"]']);
  const ac = new AbortController();
  ac.abort(new Error('left'));
  await expect(warmEngine(engine, parseHash('#iso=RWA'), { signal: ac.signal })).rejects.toThrow('left');
});
