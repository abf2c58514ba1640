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

test('a gridded series\' change map exports under the change title, its years and unit, with the diverging legend', async () => {
  const { changeRecord, changeHeading } = await import('../core/map/change');
  const { changePalette } = await import('../core/map/diverging');
  // one year of a gridded series (the member the map's year control stands on)
  const member = { varCode: 'NDVI_2010', varLabel: 'NDVI, 2010', unit: 'index', dec: 2, year: '2010', yearEnd: '2010', sourceMini: 'FIXTURE' } as unknown as VarRecord;
  const rec = changeRecord(member, 'pct', 2000, 2010);
  const palette = changePalette([-12, 3, 92.3], rec.dec); // the largest |change| 92.3 %: classes to ±100
  const info = exportInfo({ rec, palette, layerHeading: changeHeading(2000, 2010) });
  expect(info.title).toBe('Change (%) of NDVI, 2000–2010');
  expect(info.subtitle).toBe('2000–2010 · unit: % change');
  expect(info.legends).toHaveLength(1);
  const legend = info.legends[0];
  expect(legend.heading).toBe('Change 2000–2010 (% change)');
  // ColorBrewer RdBu, 6 classes (colorbrewer2.org), red = decrease to blue = increase, split at 0
  const rdbu6 = ['#b2182b', '#ef8a62', '#fddbc7', '#d1e5f0', '#67a9cf', '#2166ac'];
  const colors = legend.kind === 'ramp' ? legend.colors : legend.entries.map((e) => e.color);
  expect(colors.map((c) => c.toLowerCase())).toEqual(rdbu6);
  const labels = legend.kind === 'ramp' ? legend.ticks : legend.entries.map((e) => e.label);
  expect(labels[0]).toMatch(/^\[?-100\b/); // symmetric classes to ±100 %
  expect(labels[labels.length - 1]).toMatch(/\+?100]?$/);
  expect(labels[2]).toMatch(/, 0(\.0+)?]$/); // the third class ends at 0: the diverging centre
  expect(info.attribution).toContain('NDVI_2010: FIXTURE');

  const diff = exportInfo({ rec: changeRecord(member, 'diff', 2000, 2010), palette: changePalette([-0.4, 0.25], 2), layerHeading: changeHeading(2000, 2010) });
  expect(diff.title).toBe('Change of NDVI, 2000–2010');
  expect(diff.subtitle).toBe('2000–2010 · unit: index');
  expect(diff.legends[0].heading).toBe('Change 2000–2010 (index)');
});
