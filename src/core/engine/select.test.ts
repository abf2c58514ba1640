import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellId } from '../grid';
import { openBundle } from '../bundle';
import { loadContext, type Ctx } from './context';
import { emptySelection, MAX_IDS, select } from './select';

const DIR = join(__dirname, '../../../tests/engine/fixtures/bundle');
let c: Ctx;
beforeAll(async () => { c = await loadContext(openBundle({ text: async (rel) => readFileSync(join(DIR, rel), 'utf8') })); });

describe('select', () => {
  it('countries give one block per country over the union of their boxes; SSA pools the whole grid', () => {
    const per = select(c, { iso3: ['ken', 'TZA'] }, null, null);
    expect(per.blocks.map((b) => b?.label)).toEqual(['KEN', 'TZA']);
    expect(per.win).toEqual([0, 0, 60, 48]);
    const pooled = select(c, {}, null, null);
    expect(pooled.blocks).toEqual([null]);
    expect(pooled.win).toEqual([0, 0, c.grid.width, c.grid.height]);
    const ken = select(c, { iso3: 'KEN' }, null, null);
    expect(ken.win[1]).toBe(0);
    expect(ken.win[3]).toBe(24); // Kenya's box ends at the equator, 2 degrees = 24 rows south of 2N
  });

  it('ids give the window of the ids, a mask of them, and one pool; ids off the grid are skipped', () => {
    const ids = [cellId(c.grid, 3, 4), cellId(c.grid, 5, 6), 0];
    const s = select(c, { ids }, null, null);
    expect(s.win).toEqual([3, 4, 6, 7]);
    expect(Array.from(s.mask!)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(s.blocks).toEqual([null]);
  });

  it('refuses unknown codes, non-integer ids, too many ids, and ids all off the grid', () => {
    expect(() => select(c, { iso3: ['XXX'] }, null, null)).toThrow(expect.objectContaining({ code: 'UNKNOWN_ISO3' }));
    expect(() => select(c, { ids: [1.5] }, null, null)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => select(c, { ids: new Array(MAX_IDS + 1).fill(0) }, null, null)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
    expect(() => select(c, { ids: [0] }, null, null)).toThrow(expect.objectContaining({ code: 'EMPTY_SELECTION' }));
  });

  it('a geometry selection takes its window and weights; perCountryDefault forces the blocks', () => {
    const weight = new Float32Array([1, 0.5]);
    const s = select(c, {}, { win: [2, 2, 4, 3], weight } as never, true);
    expect(s.win).toEqual([2, 2, 4, 3]);
    expect(s.weight).toBe(weight);
    expect(s.blocks.length).toBe(c.isoClasses.length);
    expect(emptySelection(false).blocks).toEqual([null]);
    expect(emptySelection(true).blocks).toEqual([]);
  });
});
