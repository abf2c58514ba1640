import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerPath, openBundle } from '../bundle';
import { SSA_GRID } from '../grid';
import type { TextLoader } from '../io/source';
import { loadContext } from './context';

const DIR = join(__dirname, '../../../tests/engine/fixtures/bundle');
const files: TextLoader = async (rel) => readFileSync(join(DIR, rel), 'utf8');

describe('loadContext', () => {
  it('takes the grid from manifest.json and sorts the ISO3 classes by label', async () => {
    const c = await loadContext(openBundle({ text: files }));
    expect(c.grid).toMatchObject({ width: 60, height: 48, colOffset: 2520, rowOffset: 1056, xmin: 30, ymax: 2 });
    const labels = c.isoClasses.map((e) => e.label);
    expect(labels).toEqual([...labels].sort());
    for (const [i, e] of c.isoClasses.entries()) expect(c.isoIndex[e.value]).toBe(i);
    expect(c.viText).toBe(readFileSync(join(DIR, 'vi.csv'), 'utf8'));
  });

  it('a manifest that is not JSON is an IO error', async () => {
    const bad: TextLoader = async (rel, s) => (rel === 'manifest.json' ? '{not json' : files(rel, s));
    await expect(loadContext(openBundle({ text: bad }))).rejects.toMatchObject({ code: 'IO' });
  });

  it('a bundle without manifest.json has the SSA grid', async () => {
    const none: TextLoader = async (rel, s) => { if (rel === 'manifest.json') throw new Error('ENOENT'); return files(rel, s); };
    const c = await loadContext(openBundle({ text: none }));
    expect(c.grid).toEqual(SSA_GRID);
  });

  it('layerPath names the layer file, and the file of a year of a series', () => {
    expect(layerPath('ELEVATION')).toBe('cog/ELEVATION.tif');
    expect(layerPath('WPOP', { year: 2005 })).toBe('cog/WPOP_2005.tif');
  });
});
