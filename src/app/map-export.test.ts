import { expect, test } from 'vitest';
import type { VarRecord } from '../core/types';
import { exportInfo } from './map-export';

const elevation = { varCode: 'ELEVATION', varLabel: 'Elevation', unit: 'm', dec: 0, year: '2000', sourceMini: 'SRTM' } as unknown as VarRecord;
const legend = [{ label: '500 - 1,000', color: '#ffeeaa' }, { label: '1,000 - 2,000', color: '#aa5500' }];

test('the exported choropleth legend names its indicator and unit, not "Value" (issue 23)', () => {
  const info = exportInfo({ rec: elevation, palette: null, choro: { title: 'Elevation by province', legend, unit: 'm', rec: elevation } });
  expect(info.legends[0].heading).toBe('Elevation (m)');
  expect(info.legends[0].heading).not.toMatch(/^Value/);
});

test('a choropleth whose value column is no catalog indicator (similarity ranks) is headed by its own title', () => {
  const info = exportInfo({ rec: elevation, palette: null, choro: { title: 'Similarity to Nairobi', legend, unit: '' } });
  expect(info.legends[0].heading).toBe('Similarity to Nairobi');
});
