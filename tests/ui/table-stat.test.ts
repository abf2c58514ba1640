/**
 * The Table builder with a statistic in the cells (`stat`): the cells and every total are the
 * engine's statistic over the cells of the cell, row, column or selection (one getLayer each),
 * never a figure computed from the shown cells; the statistics offered are the registry's
 * one-value ones that apply to the layer.
 */
import { expect, test } from 'vitest';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { fetchTableData, tablePivot, tableValueColumn } from '../../src/ui/pivot';
import { tableStatOptions } from '../../src/app/panels/zonal-choice';

const DATA = join(__dirname, '../../public/data');

test('the cells and totals hold the chosen statistic, as getLayer gives it for each', async () => {
  const e = createNodeEngine(DATA);
  const a = { value: 'ELEVATION', iso3: ['KEN'], row: 'ADM1_NAME_ALT', col: 'ELEV_ZONE', stat: 'stdev' };
  expect(tableValueColumn(a)).toBe('ELEVATION_stdev');
  const p = tablePivot(a, await fetchTableData(e, a));
  const whole = await e.getLayerTable({ var: ['ELEVATION'], iso3: ['KEN'], stats: ['stdev'] });
  expect(p.blocks[0].total).toBe(whole.rows[0].ELEVATION_stdev);
  const byRow = await e.getLayerTable({ var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'], stats: ['stdev'] });
  const nairobi = p.blocks[0].rows.find((r) => r.key === 'Nairobi')!;
  expect(nairobi.total).toBe(byRow.rows.find((r) => r.ADM1_NAME_ALT === 'Nairobi')!.ELEVATION_stdev);
  // a population standard deviation: not the plain catalog value, and not negative
  expect(typeof p.blocks[0].total === 'number' && p.blocks[0].total > 0).toBe(true);
  await e.store.close();
});

test('the statistics offered: one value per zone, applying to the layer', () => {
  const cont = tableStatOptions('continuous').map((o) => o.value);
  expect(cont).toEqual(expect.arrayContaining(['mean', 'stdev', 'cv', 'variance', 'weighted_mean', 'valid_percent', 'area_km2']));
  expect(cont).not.toEqual(expect.arrayContaining(['quantile']));
  expect(cont.some((s) => ['frac', 'histogram', 'quantile', 'weighted_frac'].includes(s))).toBe(false);
  const cls = tableStatOptions('class').map((o) => o.value);
  expect(cls).toEqual(['variety', 'valid_percent', 'nodata', 'area_km2']);
});
