import { describe, expect, it } from 'vitest';
import { keepAllByDefault, layerFiles, offlineStatusText } from './keep-all';

const files = [{ path: 'vi.csv', bytes: 10 }, { path: 'cog/A.tif', bytes: 4e6 }, { path: 'cog/B.tif', bytes: 5e6 }, { path: 'basemap/countries.geojson', bytes: 1e6 }, { path: 'cog/C.tif', bytes: 1e6 }];

describe('keep everything offline', () => {
  it('the layers are the COGs of the manifest', () => {
    expect(layerFiles(files)).toEqual({ paths: ['cog/A.tif', 'cog/B.tif', 'cog/C.tif'], bytes: 10e6 });
  });
  it('a small bundle is kept whole by default, once, unless freed before; a large one keeps the per-layer choice', () => {
    const l = layerFiles(files);
    expect(keepAllByDefault(l, [], null, false)).toBe(true);
    expect(keepAllByDefault(l, ['cog/A.tif'], null, false)).toBe(true);
    expect(keepAllByDefault(l, l.paths, null, false)).toBe(false);
    expect(keepAllByDefault(l, [], '0', false)).toBe(false);
    expect(keepAllByDefault(l, [], null, true)).toBe(false);
    expect(keepAllByDefault({ paths: l.paths, bytes: 2e9 }, [], null, false)).toBe(false);
  });
  it('the header says what is available', () => {
    const l = layerFiles(files).paths;
    expect(offlineStatusText(l, l, null)).toBe('Everything available offline');
    expect(offlineStatusText(l, ['cog/A.tif'], null)).toBe('Map and 1 of 3 layers offline');
    expect(offlineStatusText(l, [], 0.42)).toBe('Keeping everything offline… 42 %');
  });
});
