import { expect, test } from 'vitest';
import { matchRecord } from './CatalogBrowser';
import type { VarRecord } from '../core/types';

const rec = (varCode: string, varLabel: string, cat2 = ''): VarRecord => ({ varCode, varLabel, varTitle: '', cat1: 'Agroecology', cat2, cat3: '' } as VarRecord);

test('search matches at word starts and code prefixes, not inside words', () => {
  const terrain = rec('ELEVATION', 'Elevation (ETOPO5)', 'Terrain');
  expect(matchRecord(terrain, 'rain')).toBe(false);
  expect(matchRecord(terrain, 'terr')).toBe(true);
  expect(matchRecord(rec('RAIN_MEAN', 'Mean rainfall'), 'rain')).toBe(true);
  expect(matchRecord(rec('DIST_COAST', 'Distance to coast'), 'dist_co')).toBe(true);
  expect(matchRecord(rec('DIST_COAST', 'Distance to coast'), 'distance coast')).toBe(true);
  expect(matchRecord(rec('DIST_COAST', 'Distance to coast'), 'coast')).toBe(true);
  expect(matchRecord(rec('DIST_COAST', 'Distance to coast'), '(')).toBe(true);
  expect(matchRecord(rec('DIST_COAST', 'Distance to coast'), 'oast')).toBe(false);
});
