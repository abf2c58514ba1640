import { expect, test } from 'vitest';
import { byCellText, byColumn, chartKey, colLabel, emptyResult, errText, fmtNum, isNaRow, isTotalRow, keyOrder, noData, prettyUnit, readBreaks, summaryVars, tableColumns } from './common';
import { DEFAULT_STATE } from '../url-state';
import { intervalRule } from '../../core/r/breaks';
import type { Row } from '../../core/types';

test("typed by-breaks: at least two increasing numbers under the API's interval rule, or the message", () => {
  const rule = intervalRule('ELEVATION');
  expect(readBreaks('0, 100 500;1000', rule)).toEqual([0, 100, 500, 1000]);
  expect(readBreaks('-500|0|1000', rule)).toEqual([-500, 0, 1000]);
  expect(readBreaks('100, 5', rule)).toBe('Breaks for ELEVATION must be strictly increasing numbers; 5 follows 100.');
  expect(readBreaks('1', rule)).toMatch(/^Breaks for ELEVATION need at least two breaks/);
  expect(readBreaks('1, x', rule)).toBe('Breaks for ELEVATION must be finite numbers; got "x".');
});

test('summary variables default to the mapped indicator; the chart keys on the first by column present', () => {
  expect(summaryVars({ ...DEFAULT_STATE, v: 'ELEVATION' })).toEqual(['ELEVATION']);
  expect(summaryVars({ ...DEFAULT_STATE, v: 'ELEVATION', vars: ['SLOPE'] })).toEqual(['SLOPE']);
  expect(summaryVars({ ...DEFAULT_STATE, v: 'ELEVATION', noVars: true })).toEqual([]);
  expect(chartKey([{ ISO3: 'KEN', ADM1_NAME_ALT: 'Coast', X: 1 }], ['ELEV_ZONE', 'ADM1_NAME_ALT'])).toBe('ADM1_NAME_ALT');
  expect(chartKey([{ ISO3: 'KEN', ADM0_NAME: 'Kenya', X: 1 }], [])).toBe('ADM0_NAME');
  expect(chartKey([{ feature: 1, ISO3: 'KEN', ADM0_NAME: 'Kenya', X: 1 }], [])).toBe('feature');
});

test('class keys in class order, intervals in interval order; one-country tables drop the country columns', () => {
  expect(keyOrder(['1000-1500 m', '200-500 m', '< 200 m'], ['< 200 m', '200-500 m', '500-1000 m', '1000-1500 m'])).toEqual(['< 200 m', '200-500 m', '1000-1500 m']);
  expect(keyOrder(['(300,2000]', '(100,300]', '[-Inf,100]'])).toEqual(['[-Inf,100]', '(100,300]', '(300,2000]']);
  expect(keyOrder(['Coast', 'Central'])).toBeNull();
  const rows: Row[] = [{ ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Coast', A: 1 }];
  expect(tableColumns(rows, ['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'A'])).toEqual({ cols: ['ADM1_NAME_ALT', 'A'], country: 'Kenya (KEN)' });
  expect(tableColumns([...rows, { ...rows[0], ISO3: 'TZA' }], ['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'A'], ['ADM1_NAME_ALT']).cols).toEqual(['ADM1_NAME_ALT', 'ISO3', 'A']);
});

test('no-data messages name the indicator and the countries without values', () => {
  const rows: Row[] = [{ ISO3: 'KEN', ADM0_NAME: 'Kenya', A: 1 }, { ISO3: 'SYC', ADM0_NAME: 'Seychelles' }];
  expect(noData(rows, ['A', 'B'], ['KEN', 'SYC'])).toEqual(['No data for A in SYC.', 'No data for B in this selection.']);
  expect(noData(rows.slice(0, 1), ['A'], ['KEN'])).toEqual([]);
});

test('no-data messages for missing fields in some rows; an empty result is recognised', () => {
  const rows: Row[] = [
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', A: 5 },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Coast', A: 2 },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Nairobi' },
    { ISO3: 'CPV', ADM0_NAME: 'Cabo Verde' },
    { ISO3: 'CPV', ADM0_NAME: 'Cabo Verde', ADM1_NAME_ALT: 'Praia', A: Number.NaN },
  ];
  expect(noData(rows, ['A'], ['KEN', 'CPV'], ['ADM1_NAME_ALT'])).toEqual(['No data for A in CPV.', 'No data for A in 1 row: Nairobi (KEN).']);
  expect(emptyResult(rows, ['A'])).toBe(false);
  expect(emptyResult(rows.slice(2), ['A'])).toBe(true);
  expect(emptyResult([], ['A'])).toBe(true);
});

test("a country's overall row reads as its total in the by columns", () => {
  const total: Row = { ISO3: 'KEN', ADM0_NAME: 'Kenya', A: 5 };
  const unit: Row = { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Coast', A: 2 };
  expect(isTotalRow(total, ['ADM1_NAME_ALT'])).toBe(true);
  expect(isTotalRow(unit, ['ADM1_NAME_ALT'])).toBe(false);
  expect(isTotalRow(total, [])).toBe(false);
  expect(byCellText(total, 'ADM1_NAME_ALT', ['ADM1_NAME_ALT', 'ELEV_ZONE'])).toBe('Kenya (total)');
  expect(byCellText(total, 'ELEV_ZONE', ['ADM1_NAME_ALT', 'ELEV_ZONE'])).toBe('(all)');
  expect(byCellText(unit, 'ADM1_NAME_ALT', ['ADM1_NAME_ALT'])).toBeUndefined();
  expect(byCellText(total, 'A', ['ADM1_NAME_ALT'])).toBeUndefined();
});

test('total rows marked total: 1, NA rows (null key) apart; a by key column named apart from the value', () => {
  const total: Row = { ISO3: 'KEN', total: 1, ELEVATION: 779 };
  const na: Row = { ISO3: 'KEN', ELEVATION_by: null, AREA_TOTAL: 85 };
  const unit: Row = { ISO3: 'KEN', ELEVATION_by: '(0,200]', ELEVATION: 90 };
  expect([isTotalRow(total, ['ELEVATION_by']), isTotalRow(na, ['ELEVATION_by']), isTotalRow(unit, ['ELEVATION_by'])]).toEqual([true, false, false]);
  expect([isNaRow(total, ['ELEVATION_by']), isNaRow(na, ['ELEVATION_by']), isNaRow(unit, ['ELEVATION_by'])]).toEqual([false, true, false]);
  expect(byCellText(na, 'ELEVATION_by', ['ELEVATION_by'])).toBe('NA (outside the breaks)');
  const cols = [{ name: 'ISO3', role: 'key' }, { name: 'total', role: 'key' }, { name: 'ELEVATION_by', role: 'key', code: 'ELEVATION' }, { name: 'ELEVATION', role: 'value', code: 'ELEVATION' }];
  expect(byColumn(cols, 'ELEVATION')).toBe('ELEVATION_by');
  expect(byColumn(cols, 'ADM1_NAME_ALT')).toBe('ADM1_NAME_ALT');
  const byCode = new Map([['ELEVATION', { varLabel: 'Elevation', unit: 'm' }], ['AREA_TOTAL', { varLabel: 'Cell area', unit: 'km2' }]]) as any;
  expect(colLabel(byCode, 'ELEVATION_by')).toBe('Elevation interval (m)');
  expect(colLabel(byCode, 'AREA_TOTAL')).toBe('Cell area (km²)');
});

test('units read with superscripts; numbers share the decimals of their column', () => {
  expect(['km2', 'm2', 'm3', 'people/km2', 'km', 'mm/year', 'm^2'].map(prettyUnit)).toEqual(['km²', 'm²', 'm³', 'people/km²', 'km', 'mm/year', 'm²']);
  expect([fmtNum(12.5, 2), fmtNum(1234.567, 0), fmtNum(3, 1)]).toEqual(['12.50', '1,235', '3.0']);
});

test('errors are worded for the app: the API advice for R users points to the catalog', () => {
  expect(errText(new Error('Variable NOPE was not found in the indicator data catalog. Use describe() or category() to query indicator metadata.')))
    .toBe('Variable NOPE was not found in the indicator data catalog. See the catalog for valid codes.');
  expect(errText(new Error('Other.'))).toBe('Other.');
});
