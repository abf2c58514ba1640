import { describe, expect, it } from 'vitest';
import { SSA_GRID } from '../grid';
import { bundleUrl, classTablePath, cogPath, manifestGrid, parseManifest, serialiseManifest } from '.';

describe('bundle paths', () => {
  it('builds cog/ and classes/ paths in one place, URL-encoded per segment', () => {
    expect(cogPath('ELEVATION')).toBe('cog/ELEVATION.tif');
    expect(classTablePath('ADM1_NAME_ALT')).toBe('classes/ADM1_NAME_ALT.csv');
    expect(bundleUrl('https://h/data/', cogPath('A B'))).toBe('https://h/data/cog/A%20B.tif');
    expect(bundleUrl('https://h/data', 'vi.csv')).toBe('https://h/data/vi.csv');
  });
});

describe('manifest', () => {
  it('parses, keeps other fields, and writes back the same', () => {
    const text = serialiseManifest({ name: 'b', version: '1', files: [{ path: 'vi.csv', bytes: 3, sha256: 'ab' }], extra: 1 });
    const m = parseManifest(text);
    expect(m).toMatchObject({ name: 'b', version: '1', extra: 1 });
    expect(serialiseManifest(m)).toBe(text);
    expect(manifestGrid(m)).toBe(SSA_GRID);
    // a window other than the embedded one (e.g. an ingested table's), checked against the lattice
    const win = { width: 60, height: SSA_GRID.height, colOffset: 2520, rowOffset: SSA_GRID.rowOffset, cellSizeDeg: 1 / 12, xmin: 30 };
    expect(manifestGrid({ ...m, grid: win })).toMatchObject({ width: 60, xmin: 30, xmax: 35, height: SSA_GRID.height, ymax: SSA_GRID.ymax });
    // edges that disagree with the offsets: not trusted, the embedded window is used
    expect(manifestGrid({ ...m, grid: { ...win, xmin: 31 } })).toBe(SSA_GRID);
  });

  it('refuses what is not a manifest (IO)', () => {
    expect(() => parseManifest('{x')).toThrow(expect.objectContaining({ code: 'IO' }));
    expect(() => parseManifest('[]')).toThrow(expect.objectContaining({ code: 'IO' }));
    expect(() => parseManifest('{"files": 3}')).toThrow(expect.objectContaining({ code: 'IO' }));
  });
});
