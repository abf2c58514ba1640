import { describe, expect, it } from 'vitest';
import { SSA_GRID } from '../grid';
import { bundleUrl, classTablePath, cogPath, manifestGrid, parseClassTable, parseManifest, parseVi, parseViRecords, serialiseManifest } from '.';
import { serialiseClassTable, serialiseVi } from './tables-write';

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

describe('vi.csv and class tables against formula injection (issue 25 item 7)', () => {
  const evil = { varCode: 'X1', varLabel: '=HYPERLINK("http://x","y")', varDesc: "=cmd|' /C calc'!A0", unit: '@SUM(1)', type: 'continuous', aggFunR: 'mean(X1)', classBreaks: '-10|0|10', noData: '-9999', sources: '<img src=x onerror=alert(1)>' };
  it('writes a leading \' before formula text (not before -9999), and reads back what was written', () => {
    const fields = Object.keys(evil);
    const text = serialiseVi(fields, [evil]);
    const line = text.split('\n')[1];
    expect(line).toContain('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(line).toContain('"\'=cmd|\' /C calc\'!A0"');
    expect(line).toContain('"\'@SUM(1)"');
    expect(line).toContain('"\'-10|0|10"');
    expect(line).toContain(',-9999,');
    expect(parseViRecords(text).records).toEqual([evil]);
    expect(parseVi(text)[0]).toMatchObject({ varLabel: evil.varLabel, varDesc: evil.varDesc, classBreaks: '-10|0|10', sources: evil.sources });
    const classes = serialiseClassTable([{ value: 1, label: '=1+1' }, { value: -1, label: 'ok' }]);
    expect(classes).toBe("value,label,color\n1,\"'=1+1\",\n-1,ok,\n");
    expect(parseClassTable(classes).map((e) => e.label)).toEqual(['=1+1', 'ok']);
  });
});
