import { describe, expect, test } from 'vitest';
import { approxMeasure, composeMapSvg, exportTarget, exportLegend, fitText, legendLayout, metresPerPixel, scaleBar, toWinAnsi, wrapItems, xmlEscape, type MapComposition } from './map-export-svg';

describe('scale bar', () => {
  test('metres per pixel: equator at zoom 0 is the circumference over 512 px; halves per zoom; cos(lat)', () => {
    expect(metresPerPixel(0, 0)).toBeCloseTo(40075016.686 / 512, 3);
    expect(metresPerPixel(0, 5)).toBeCloseTo(40075016.686 / 512 / 32, 6);
    expect(metresPerPixel(60, 5) / metresPerPixel(0, 5)).toBeCloseTo(0.5, 12);
  });
  test('Kenya at zoom 5 (lat 0.3): 120 px are 293.5 km, so the bar is 200 km, 81.8 px', () => {
    const s = scaleBar(0.3, 5, 120);
    expect(s.km).toBe(200);
    expect(s.label).toBe('200 km');
    expect(s.px).toBeCloseTo(200_000 / (40075016.686 * Math.cos(0.3 * Math.PI / 180) / (512 * 32)), 6);
    expect(s.px).toBeCloseTo(81.77, 1);
  });
  test('at 60 degrees the same bar is twice as long as at the equator (Web Mercator)', () => {
    const a = scaleBar(0, 8, 120), b = scaleBar(60, 8, 120);
    expect(a.km).toBe(20); // 120 px x 298.6 m = 35.8 km
    expect(b.km).toBe(10); // 17.9 km fit: the 1-2-5 step is 10 km
    expect(b.px / b.km).toBeCloseTo(2 * (a.px / a.km), 9);
  });
  test('short distances read in metres, with no float noise', () => {
    const s = scaleBar(-1.28, 17, 120); // 0.597 m/px: 71.6 m fit; 50 m
    expect(s.label).toBe('50 m');
    expect(s.km).toBe(0.05);
    const t = scaleBar(0, 13, 100); // 9.55 m/px: 955 m fit; 500 m
    expect(t.label).toBe('500 m');
  });
});

describe('text helpers', () => {
  test('xmlEscape escapes markup and drops control characters', () => {
    expect(xmlEscape(`a<b>&"c'\u0001`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });
  test('fitText cuts with an ellipsis to the width', () => {
    expect(fitText('short', 100, 10, false, approxMeasure)).toBe('short');
    const t = fitText('a very long legend label indeed', 60, 10, false, approxMeasure);
    expect(t.endsWith('…')).toBe(true);
    expect(approxMeasure(t, 10, false)).toBeLessThanOrEqual(60);
  });
  test('wrapItems joins items with " · " and wraps to lines within the width', () => {
    const lines = wrapItems(['indapi3', 'ELEVATION: ETOPO5', 'Places: GeoNames (CC BY 4.0)'], 160, 10, approxMeasure);
    expect(lines).toEqual(['indapi3 · ELEVATION: ETOPO5', 'Places: GeoNames (CC BY 4.0)']);
    expect(wrapItems(['a', 'b'], 1000, 10, approxMeasure)).toEqual(['a · b']);
  });
  test('toWinAnsi keeps Latin-1 and CP1252 (km², en dash, é), replaces others', () => {
    expect(toWinAnsi('km² – Agaléga · 5–20%')).toBe('km² – Agaléga · 5–20%');
    expect(toWinAnsi('≤ 5 ≥ 2 −1 Ōsaka 北京')).toBe('<= 5 >= 2 -1 Osaka ??');
  });
});

describe('legend layout', () => {
  const entries = Array.from({ length: 20 }, (_, i) => ({ label: `class ${i}`, color: '#123456' }));
  test('swatches: one 16-px row per entry, at most 14, the rest counted', () => {
    const l = legendLayout({ kind: 'swatches', heading: 'Classes', entries: entries.slice(0, 8) }, 300, 1000);
    expect(l.cells).toHaveLength(8);
    expect(l.cells[1].y - l.cells[0].y).toBe(16);
    expect(l.texts.map((t) => t.text)).toEqual(entries.slice(0, 8).map((e) => e.label));
    expect(l.more).toBe(0);
    expect(l.h).toBe(28 + 8 * 16 + 6);
    const big = legendLayout({ kind: 'swatches', heading: 'Classes', entries }, 300, 1000);
    expect(big.cells).toHaveLength(14);
    expect(big.more).toBe(6);
    expect(big.texts.at(-1)!.text).toBe('+ 6 more classes');
  });
  test('swatches: a short box keeps the rows that fit plus the "more" row', () => {
    const l = legendLayout({ kind: 'swatches', heading: 'Classes', entries }, 300, 28 + 5 * 16 + 8);
    expect(l.cells).toHaveLength(4);
    expect(l.more).toBe(16);
    expect(l.h).toBeLessThanOrEqual(28 + 5 * 16 + 8);
  });
  test('ramp: touching 14-px steps, a tick label at every break', () => {
    const l = legendLayout({ kind: 'ramp', heading: 'm', colors: ['#000000', '#444444', '#888888'], ticks: ['0', '10', '20', '30'] }, 300, 1000);
    expect(l.cells.map((c) => c.y)).toEqual([30, 44, 58]);
    expect(l.cells.every((c) => c.h === 14)).toBe(true);
    expect(l.texts.map((t) => t.text)).toEqual(['0', '10', '20', '30']);
    expect(l.texts.map((t) => t.y)).toEqual([30, 44, 58, 72]);
    expect(l.ticks).toHaveLength(4);
  });
  test('ramp: many classes in a short box shrink the steps and thin the labels', () => {
    const colors = Array.from({ length: 40 }, () => '#000000');
    const ticks = Array.from({ length: 41 }, (_, i) => String(i));
    const l = legendLayout({ kind: 'ramp', heading: 'm', colors, ticks }, 300, 200);
    expect(l.h).toBeLessThanOrEqual(200);
    expect(l.texts.length).toBeLessThan(41);
    expect(l.texts.at(-1)!.text).toBe('40');
    for (let i = 1; i < l.texts.length - 1; i++) expect(l.texts[i].y - l.texts[i - 1].y).toBeGreaterThanOrEqual(12);
  });
  test('the box is no wider than allowed, long labels cut', () => {
    const l = legendLayout({ kind: 'swatches', heading: 'A long heading for a narrow box', entries: [{ label: 'x'.repeat(200), color: '#ff0000' }] }, 150, 1000);
    expect(l.w).toBeLessThanOrEqual(150);
    expect(l.texts[0].text.endsWith('…')).toBe(true);
  });
});

describe('export legend', () => {
  test('R cut() interval labels give a ramp with the breaks as ticks', () => {
    const lg = exportLegend({ palette: { kind: 'intervals', breaks: [0, 0.5, 1.25, 3], colors: ['#a', '#b', '#c'], labels: ['(0,0.5]', '(0.5,1.25]', '(1.25,3]'] } }, 'X (m)', 2);
    expect(lg).toEqual({ kind: 'ramp', heading: 'X (m)', colors: ['#a', '#b', '#c'], ticks: ['0', '0.5', '1.25', '3'] });
  });
  test('catalog class labels and class layers give swatches', () => {
    const lg = exportLegend({ palette: { kind: 'intervals', breaks: [0, 1, 2], colors: ['#a', '#b'], labels: ['low', 'high'] } }, 'h', 0);
    expect(lg).toEqual({ kind: 'swatches', heading: 'h', entries: [{ label: 'low', color: '#a' }, { label: 'high', color: '#b' }] });
    expect(exportLegend({ palette: { kind: 'classes', values: [1], colors: ['#c'], labels: ['Forest'] } }, 'h', 0).kind).toBe('swatches');
    expect(exportLegend({ entries: [{ label: '[1, 2]', color: '#d' }] }, 'h', 0)).toEqual({ kind: 'swatches', heading: 'h', entries: [{ label: '[1, 2]', color: '#d' }] });
  });
});

describe('composeMapSvg', () => {
  const comp: MapComposition = {
    width: 800, height: 500, mapImage: 'data:image/png;base64,AAAA', title: 'Elevation (ETOPO5) <test>', subtitle: '1988 · unit: m',
    legends: [{ kind: 'swatches', heading: 'ELEVATION (m)', entries: [{ label: '< 0 m', color: '#1a9850' }, { label: '0 - 200 m', color: '#66bd63' }] }],
    lat: 0.3, zoom: 5, bearing: 0, attribution: ['indapi3', 'ELEVATION: ETOPO5', 'Basemap: Natural Earth'],
    labels: [{ kind: 'place', x: 100, y: 100, text: 'Nairobi' }, { kind: 'shape', x: 200, y: 200, text: '1' }],
    paths: [{ d: 'M0 0L10 10', stroke: '#3c3c3c', width: 0.9 }],
  };
  const svg = composeMapSvg(comp);
  test('title, legend labels, scale label, attribution and place labels are text elements, escaped', () => {
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(texts).toEqual(expect.arrayContaining(['Elevation (ETOPO5) &lt;test&gt;', '1988 · unit: m', 'ELEVATION (m)', '&lt; 0 m', '0 - 200 m', '200 km', 'N', 'Nairobi', '1', 'indapi3 · ELEVATION: ETOPO5 · Basemap: Natural Earth']));
    expect(svg).toContain('font-family="sans-serif"');
  });
  test('the map raster is an embedded image over the whole view; vectors are clipped paths', () => {
    expect(svg).toMatch(/<image id="map-raster" x="0" y="0" width="800" height="500" preserveAspectRatio="none" xlink:href="data:image\/png;base64,AAAA"/);
    expect(svg).toMatch(/<g id="map-vectors" clip-path="url\(#map-clip\)"[^>]*>\n<path d="M0 0L10 10" fill="none" stroke="#3c3c3c" stroke-width="0.9"\/>/);
  });
  test('the scale bar path is as long as scaleBar says; the legend sits above the attribution strip', () => {
    const sb = scaleBar(0.3, 5, 120);
    const m = /<g id="scale-bar">.*\n<path d="M([\d.]+) [\d.]+V[\d.]+H([\d.]+)/.exec(svg)!;
    expect(Number(m[2]) - Number(m[1])).toBeCloseTo(sb.px, 0);
    const ly = Number(/<g id="legend" transform="translate\(10 ([\d.]+)\)/.exec(svg)![1]);
    const strip = Number(/<g id="attribution"><rect x="0" y="([\d.]+)"/.exec(svg)![1]);
    expect(ly).toBeLessThan(strip);
    expect(ly).toBeGreaterThan(strip - 120);
  });
  test('two legends side by side, clear of each other and of the scale bar', () => {
    const choro = { kind: 'swatches' as const, heading: 'Value (m)', entries: [{ label: '100 - 200', color: '#fee' }, { label: '200 - 300', color: '#f00' }] };
    const two = composeMapSvg({ ...comp, legends: [choro, comp.legends[0]] });
    const a = /<g id="legend" transform="translate\(([\d.]+) ([\d.]+)\)"><rect x="0" y="0" width="([\d.]+)"/.exec(two)!;
    const b = /<g id="legend-2" transform="translate\(([\d.]+) ([\d.]+)\)"><rect x="0" y="0" width="([\d.]+)"/.exec(two)!;
    expect(Number(b[1])).toBeGreaterThanOrEqual(Number(a[1]) + Number(a[3]));
    expect(two).toContain('&lt; 0 m');
    expect(two).toContain('200 - 300');
  });
  test('labels: a place at the right edge goes left of its dot; a place under the title box is left out; the title box is opaque', () => {
    const svg2 = composeMapSvg({ ...comp, labels: [{ kind: 'place', x: 790, y: 250, text: 'Edgetown' }, { kind: 'place', x: 30, y: 25, text: 'Hidden' }] });
    expect(svg2).toMatch(/<text x="781" y="254" font-size="11.5" font-weight="bold" fill="#1b1f24" text-anchor="end">Edgetown<\/text>/);
    expect(svg2).not.toContain('Hidden');
    expect(svg2).toMatch(/<g id="title"><rect x="10" y="10" width="\d+" height="42" rx="3" fill="#ffffff" stroke="#aab2bc"\/>/);
  });
  test('a source tag over the town label of the same name is drawn once (no "NairobiNairobi" in the text); other towns stay', () => {
    const svg2 = composeMapSvg({ ...comp, labels: [{ kind: 'place', x: 300, y: 300, text: 'Nairobi' }, { kind: 'place', x: 303, y: 290, text: 'Nairobi' }, { kind: 'place', x: 330, y: 330, text: 'Thika' }, { kind: 'place', x: 600, y: 300, text: 'Nairobi' }] });
    const texts = [...svg2.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(texts.filter((t) => t === 'Nairobi')).toHaveLength(2);
    expect(texts).toContain('Thika');
  });
  test('a rotated map rotates the north arrow', () => {
    expect(composeMapSvg({ ...comp, bearing: 30 })).toContain('<g id="north-arrow" transform="rotate(-30 778 30)">');
  });
});

describe('export sizes', () => {
  test('A4 at 150 and 300 dpi, oriented as the view; the screen size is the map itself', () => {
    expect(exportTarget({ width: 700, height: 500 }, { kind: 'a4', dpi: 300 }, 'png')).toEqual({ cssW: 1123, cssH: 794, ratio: 3.125, pxW: 3508, pxH: 2480 });
    expect(exportTarget({ width: 700, height: 844 }, { kind: 'a4', dpi: 150 }, 'png')).toMatchObject({ cssW: 794, cssH: 1123, pxW: 1240, pxH: 1754 });
    expect(exportTarget({ width: 700, height: 844 }, { kind: 'screen' }, 'png')).toBeNull();
  });
  test('a PDF is always the A4 page within its 28-pt margins (277.2 x 190.2 mm), so the map fills it', () => {
    const t = exportTarget({ width: 700, height: 844 }, { kind: 'screen' }, 'pdf')!;
    expect([t.pxW, t.pxH]).toEqual([1123, 1637]);
    expect(t.cssW / t.cssH).toBeCloseTo((595.28 - 56) / (841.89 - 56), 2);
  });
  test('a width in px keeps the view and its aspect, within 4096 px', () => {
    expect(exportTarget({ width: 700, height: 844 }, { kind: 'width', px: 1500 }, 'png')).toEqual({ cssW: 700, cssH: 844, ratio: 1500 / 700, pxW: 1500, pxH: 1809 });
    const big = exportTarget({ width: 390, height: 380 }, { kind: 'width', px: 99999 }, 'svg')!;
    expect(Math.max(big.pxW, big.pxH)).toBeLessThanOrEqual(4096);
  });
});
