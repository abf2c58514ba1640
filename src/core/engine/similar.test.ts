import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '.';
import { fileSourceFactory } from '../../node/file-source';
import { openBundle } from '../bundle';
import { loadContext, type Ctx } from './context';
import { similar } from './similar';

const DIR = join(__dirname, '../../../tests/engine/fixtures/bundle');
let c: Ctx;
beforeAll(async () => { c = await loadContext(openBundle({ text: async (rel) => readFileSync(join(DIR, rel), 'utf8') })); });
const never = async () => { throw new Error('the query must not run'); };

describe('similar', () => {
  it('checks by and x before any query', async () => {
    await expect(similar(c, { x: '1', var: ['ELEVATION'], by: 3 }, never, {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining("'by'") });
    await expect(similar(c, { x: '', var: ['ELEVATION'], by: 1 }, never, {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining("'x'") });
    await expect(similar(c, { x: 'a', var: ['ELEVATION'], by: 2 }, never, {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('Second-level') });
  });

  it('ranks cells: the reference first with score 0, ranks increasing with the score', async () => {
    const e = createEngine({ source: fileSourceFactory(DIR), text: async (rel) => readFileSync(join(DIR, rel), 'utf8') });
    const cells = await e.getLayer({ var: ['ELEVATION'], iso3: ['KEN'], collapse: false }) as Array<Record<string, number>>;
    const x = cells[10].CELL5M;
    const t = await e.similar({ x, var: ['ELEVATION'], iso3: ['KEN'] });
    expect(t.rows[0]).toMatchObject({ CELL5M: x, score: 0, rank: 1 });
    for (let i = 1; i < t.rows.length; i++) expect(Number(t.rows[i].score)).toBeGreaterThanOrEqual(Number(t.rows[i - 1].score));
  });
});
