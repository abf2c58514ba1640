import { describe, expect, it } from 'vitest';
import { isIndapiError } from '../errors';
import { CATCHMENT_FORMATS, resolveCatchmentFormat } from '../catchment/formats';
import { FORMATS, cellQueryArgs, findFormat, needsCells, normalizeFormat, resolveFormat } from './registry';

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isIndapiError(e)) return e.code;
    throw e;
  }
  return 'none';
}

describe('the format registry', () => {
  it('names every spelling once, in lower case', () => {
    for (const list of [FORMATS, CATCHMENT_FORMATS]) {
      const all = list.flatMap((f) => [f.name, ...f.aliases]);
      expect(new Set(all).size).toBe(all.length);
      for (const k of all) expect(k).toBe(k.trim().toLowerCase());
      for (const f of list) expect(f.label.length).toBeGreaterThan(3);
    }
  });

  it('normalises in one place: trimmed, any case, aliases (issue 25: "tif " answered 500)', () => {
    for (const f of ['tif ', ' tif', 'tif\n', '\tGeoTIFF\r\n', 'TIFF']) expect(normalizeFormat(f)).toBe('tif');
    expect(normalizeFormat('asc ')).toBe('asc');
    expect(normalizeFormat(' RData')).toBe('rda');
    expect(normalizeFormat('DataTable ')).toBe('data.table');
    expect(needsCells('tif ')).toBe(true);
    expect(needsCells(' csv')).toBe(false);
    expect(cellQueryArgs(' HIST ', { var: ['A'], by: ['B'] })).toEqual({ var: ['A'] });
    expect(resolveCatchmentFormat(' GeoJSON ').input).toBe('source');
    expect(resolveCatchmentFormat('tif\n').name).toBe('tif');
  });

  it('refuses an unknown format with BAD_FORMAT (400), never a fallback', () => {
    for (const f of ['', ' ', 'docx', 'tif tif', 'csv,tif']) expect(codeOf(() => resolveFormat(f))).toBe('BAD_FORMAT');
    expect(codeOf(() => resolveFormat('netcdf'))).toBe('BAD_FORMAT');
    expect(() => resolveCatchmentFormat('plot')).toThrow(/catchment writes csv/);
    expect(findFormat('docx')).toBeUndefined();
  });
});
