import { describe, expect, it } from 'vitest';
import { TABLE_KEN_ADM1 } from '../../../tests/formats/formats.fixture';
import { csvField, csvText, neutraliseFormulaText, restoreFormulaText, writeCsv } from './csv';

describe('csv writer (RFC 4180)', () => {
  it('quotes only fields with comma, quote or line break, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });
  it('neutralises text a spreadsheet would run as a formula, not numbers (OWASP CSV injection, issue 25 item 7)', () => {
    for (const bad of ['=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", '@SUM(1)', '+1+1', '-2+3+cmd|x', '\t=1', '\r=1', "'=1"]) {
      expect(neutraliseFormulaText(bad), bad).toBe(`'${bad}`);
      expect(restoreFormulaText(neutraliseFormulaText(bad)), bad).toBe(bad);
    }
    for (const ok of ['-1.5', '+3e2', '-9999', '.5', 'Côte', "'quoted", '', '(-10,0]', 'a=b']) {
      expect(neutraliseFormulaText(ok), ok).toBe(ok);
      expect(restoreFormulaText(ok), ok).toBe(ok);
    }
    expect(csvText(['name', 'v'], [['=HYPERLINK("x")', -1.5], ['@SUM(1)', -2], ['-1.5', 3]])).toBe('name,v\r\n"\'=HYPERLINK(""x"")",-1.5\r\n"\'@SUM(1)",-2\r\n-1.5,3\r\n');
  });
  it('writes header, CRLF rows, empty fields for missing values', () => {
    expect(csvText(['a', 'b'], [[1, undefined], [NaN, 'x']])).toBe('a,b\r\n1,\r\n,x\r\n');
  });
  it('writes the fixture table in column order with UTF-8 text', () => {
    const text = new TextDecoder().decode(writeCsv(TABLE_KEN_ADM1));
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('ISO3,ADM0_NAME,ADM1_NAME_ALT,ELEVATION,AREA_TOTAL,ELEV_ZONE');
    expect(lines[1]).toBe('KEN,Kenya,,1093,591958.4,Midland (500-1500 m)');
    expect(lines[3]).toBe('KEN,Kenya,"Région ""Côte"", Est",,83040.5,Lowland (< 500 m)');
    expect(lines[4]).toBe('KEN,Kenya,Rift Valley,1502.5,182505,');
    expect(lines).toHaveLength(6);
  });
});

import type { TableResult } from '../api';
import { prepareColumns } from './table';

describe('factor levels', () => {
  it('keep a short class table whole and cut a long one to the classes present', () => {
    const classes = Array.from({ length: 100 }, (_, i) => ({ value: i + 1, label: `u${i + 1}` }));
    const t: TableResult = { meta: [], rows: [{ A: 'u7' }, { A: 'u3' }, {}], columns: [{ name: 'A', role: 'key', label: 'A', unit: '', type: 'string', classes }] };
    const [c] = prepareColumns(t);
    expect(c.levels).toEqual(['u3', 'u7']);
    expect(c.levelValues).toEqual([3, 7]);
    expect(Array.from(c.codes as Int32Array)).toEqual([1, 0, -1]);
    const [s] = prepareColumns({ ...t, columns: [{ ...t.columns[0], classes: classes.slice(0, 10) }] });
    expect(s.levels).toHaveLength(10);
  });
});
