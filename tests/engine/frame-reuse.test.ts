/**
 * Frames kept between queries (issue 26 item 5): a sequence of queries on one engine, where
 * later queries reuse the frames (groups per cell and per-group cell lists) of earlier ones
 * over the same windows, answers each exactly as a fresh engine does, whatever changes between
 * them: countries, by dimensions, a by filter, ids, a WKT area, stats.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import type { GetLayerArgs } from '../../src/core/types';

const BUNDLE = join(__dirname, 'fixtures/bundle');
const VARS = ['ELEVATION', 'SLOPE', 'AREA_LAND', 'TRI', 'DIST_COAST'];

describe('frames reused between queries', () => {
  it('every answer equals a fresh engine\'s', async () => {
    const seq: GetLayerArgs[] = [
      { var: VARS, by: ['ADM1_CODE_ALT'] },
      { var: VARS, by: ['ADM1_CODE_ALT'] },
      { var: VARS, by: ['ADM1_CODE_ALT'], stats: ['sum', 'sd', 'count'] },
      { var: VARS, by: ['ELEV_ZONE'] },
      { var: VARS, by: ['ADM1_CODE_ALT', 'ELEVATION'] },
      { var: VARS, by: ['ADM1_CODE_ALT', 'ELEVATION'] },
      { var: VARS },
      { var: VARS, by: ['ADM1_CODE_ALT'] },
    ] as GetLayerArgs[];
    const cat = await createNodeEngine(BUNDLE).loadCatalog();
    const countries = cat.iso.filter((i) => i.type === 'country').map((i) => i.code);
    for (const c of countries.slice(0, 2)) seq.push({ var: VARS, iso3: [c], by: ['ADM1_CODE_ALT'] } as GetLayerArgs, { var: VARS, iso3: [c] } as GetLayerArgs);
    const zones = (await cat.classes('ELEV_ZONE')).map((e) => e.label);
    seq.push({ var: VARS, by: { ELEV_ZONE: [zones[0]] } } as unknown as GetLayerArgs, { var: VARS, by: ['ELEV_ZONE'] } as GetLayerArgs);
    const warm = createNodeEngine(BUNDLE);
    for (const args of seq) {
      const fresh = createNodeEngine(BUNDLE);
      expect(await warm.getLayer(args), JSON.stringify(args)).toEqual(await fresh.getLayer(args));
      await fresh.store.close();
    }
    await warm.store.close();
  });
});
