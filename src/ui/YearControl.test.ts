import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { YearControl, type YearControlProps } from './YearControl';

const YEARS = [2000, 2005, 2010];
const html = (p: Partial<YearControlProps>) => renderToStaticMarkup(createElement(YearControl, {
  years: YEARS, year: 2010, onYear: () => undefined, change: { change: 'pct', from: 2000, onChange: () => undefined }, ...p,
}));
/** The change choice's wrapper: `hidden` or not. */
const rowHidden = (h: string) => /<div id="[^"]+-c" hidden="">/.test(h);

describe('the year control on a phone folds to one line', () => {
  test('desktop: the slider, the years and the change choice, no fold button', () => {
    const h = html({});
    expect(h).toContain('data-testid="year-value">2000–2010</output>');
    expect(h).toContain('<select');
    expect(h).not.toContain('year-fold');
    expect(rowHidden(h)).toBe(false);
  });

  test('phone: the play button, the slider and "2000–2010 change" with a button that unfolds the hidden choice', () => {
    const h = html({ collapsed: true });
    expect(h).toContain('type="range"'); // the keyboard keeps the slider (arrows, Home/End, Space)
    expect(h).toMatch(/data-testid="year-value">2000–2010<\/output><button[^>]*data-testid="year-fold" aria-expanded="false" aria-controls="([^"]+-c)"[^>]*>change <span aria-hidden="true">▸<\/span><\/button>/);
    const controls = /aria-controls="([^"]+)"/.exec(h)![1];
    expect(h).toContain(`<div id="${controls}" hidden="">`);
    expect(rowHidden(h)).toBe(true);
  });

  test('phone, the year\'s values mapped: the year alone and an arrow named by its label', () => {
    const h = html({ collapsed: true, year: 2005, change: { change: null, from: null, onChange: () => undefined } });
    expect(h).toContain('data-testid="year-value">2005</output>');
    expect(h).toMatch(/aria-label="Show the change choice"[^>]*><span aria-hidden="true">▸<\/span><\/button>/);
  });

  test('one year, or no change choice: nothing to fold', () => {
    expect(html({ collapsed: true, years: [2010] })).not.toContain('year-fold');
    expect(html({ collapsed: true, change: undefined })).not.toContain('year-fold');
  });

  test('a national series on a phone: classes closed, the control folded in the same box', () => {
    const h = html({ collapsed: true, national: { choro: null, source: 'PWT 9.1, CC BY 4.0' } });
    expect(h).toContain('class="legend series-legend"');
    expect(h).toContain('<details>'); // closed
    expect(h).toContain('data-testid="year-fold" aria-expanded="false"');
    expect(rowHidden(h)).toBe(true);
  });
});
