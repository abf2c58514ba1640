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

test('catchment bands drawn as cells export under their own title and legend heading, not the indicator under them (issue 24)', () => {
  const palette = { kind: 'classes' as const, values: [0], colors: ['#4e79a7'], labels: ['Nairobi: 0-60 min'] };
  const cells = { title: 'Marketsheds from 3 sources', subtitle: 'Walking (FRICTION_WALK)', heading: 'Nearest source and band, minutes', attribution: ['FRICTION_WALK: Tobler, ETOPO5'], fileStem: 'catchment' };
  const info = exportInfo({ rec: elevation, palette, cells });
  expect(info.title).toBe('Marketsheds from 3 sources');
  expect(info.legends.map((l) => l.heading)).toEqual(['Nearest source and band, minutes']);
  expect(info.attribution.join(' ')).toContain('FRICTION_WALK');
  expect(info.attribution.join(' ')).not.toContain('ELEVATION');
});
