import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { VarRecord } from '../core/types';
import { HoverInfo } from './HoverInfo';

/** A hover over Nigeria (cell 4196975) with no raster value under it. */
const hover = { cell5m: 4196975, lon: 7.9583, lat: 9.0417, value: NaN, iso3: 'NGA', country: 'Nigeria', adm1: 'Nassarawa' };
const pop = { varCode: 'PWT_POP', unit: 'million people', dec: 3 } as unknown as VarRecord;
/** PWT 9.1 pop, NGA: 100 * (190.886 - 122.352) / 122.352 = 56.0 % (2000-2017). */
const choro = { pairs: [['NGA', '#67a9cf']], legend: [], title: 'Change (%) of Population (PWT 9.1), 2000–2017', code: 'PWT_POP change pct 2000-2017', values: new Map([['NGA', 56.01]]), dec: 1, unit: '%', level: 0 } as never;
const html = (cells?: boolean) => renderToStaticMarkup(createElement(HoverInfo, { hover, choro, rec: pop, coarse: false, cells }));

describe('HoverInfo over a choropleth', () => {
  test('a national series (no cells drawn): the national value, no "Cell: no data" row', () => {
    const h = html(false);
    expect(h).toContain('<dt>National value</dt><dd data-testid="hover-value">56.0 %</dd>');
    expect(h).not.toContain('<dt>Cell</dt>');
    expect(h).toContain('Nigeria (NGA)');
  });
  test('a summary choropleth over a layer keeps the unit and the cell under it', () => {
    const h = html();
    expect(h).toContain('<dt>Unit</dt><dd data-testid="hover-value">56.0 %</dd>');
    expect(h).toContain('<dt>Cell</dt><dd>no data</dd>');
  });
});
