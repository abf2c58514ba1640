import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { branchKeys, CatalogBrowser, groupCatalog, resultRows, treeRows } from './CatalogBrowser';
import { IndicatorCard, extraFields } from './IndicatorCard';
import { parseVi } from '../core/bundle';
import { buildCatalogIndex } from '../core/catalog/search';
import { catalog750Csv } from '../../tests/fixtures/catalog750.fixture';

const big = parseVi(catalog750Csv());

test('tree rows: closed categories only, then the open branches with levels and positions', () => {
  const groups = groupCatalog(big);
  const closed = treeRows(groups, new Set());
  expect(closed.every((r) => r.level === 1 && r.kind === 'branch')).toBe(true);
  expect(closed.map((r) => r.posinset)).toEqual(closed.map((_, i) => i + 1));
  expect(closed.every((r) => r.setsize === closed.length)).toBe(true);
  expect(closed.reduce((a, r) => a + r.count, 0)).toBe(750);
  // open the path of one maize record: Production > Yield > maize (an item of several records)
  const maize = big.find((r) => r.varCode === 'MAIZ_Y_A05')!;
  const rows = treeRows(groups, new Set(branchKeys(maize)));
  const rec = rows.find((r) => r.rec?.varCode === 'MAIZ_Y_A05')!;
  expect(rec.level).toBe(4);
  const item = rows.find((r) => r.key === rec.parent)!;
  expect(item).toMatchObject({ label: 'maize', level: 3, expanded: true, count: 4 });
  const siblings = rows.filter((r) => r.parent === rec.parent);
  expect(siblings.map((r) => r.posinset)).toEqual([1, 2, 3, 4]);
  expect(siblings.every((r) => r.setsize === 4)).toBe(true);
  // far fewer rows than records: only open branches are listed
  expect(rows.length).toBeLessThan(60);
});

test('result rows say where a weak hit matched', () => {
  const ix = buildCatalogIndex(big);
  const rows = resultRows(ix.search('town').hits);
  expect(rows.length).toBeGreaterThan(5);
  expect(rows[0].setsize).toBe(rows.length);
  expect(rows.find((r) => r.rec?.varCode === 'TT_20K')?.note).toContain('related word');
});

test('the browser renders a virtual tree with ARIA positions, not every record', () => {
  const html = renderToStaticMarkup(createElement(CatalogBrowser, { records: big, selected: null, onSelect: () => undefined }));
  expect(html).toContain('role="tree"');
  expect(html).toMatch(/role="treeitem"[^>]*aria-setsize="\d+"[^>]*aria-posinset="1"[^>]*aria-level="1"|role="treeitem"[^>]*aria-level="1"/);
  expect(html).toContain('750 of 750 indicators');
  expect((html.match(/role="treeitem"/g) ?? []).length).toBeLessThan(40);
  for (const f of ['Category', 'Year', 'Source', 'Type']) expect(html).toContain(`<legend>${f}</legend>`);
});

test('the card lists every field of the original record, URLs and DOIs as links', () => {
  const rec = { ...big[0], citation: 'Someone (2020). doi:10.1234/abc.def', extraSpamUrl: 'https://example.org/spam', EXTRA_NOTE: 'kept as is' } as any;
  const extras = extraFields(rec);
  expect(extras.map(([k]) => k)).toEqual(['extraSpamUrl', 'EXTRA_NOTE']);
  const html = renderToStaticMarkup(createElement(IndicatorCard, { rec }));
  expect(html).toContain('All fields');
  expect(html).toContain('<code>varDesc</code>');
  expect(html).toContain('<code>EXTRA_NOTE</code>');
  expect(html).toContain('href="https://example.org/spam"');
  expect(html).toContain('href="https://doi.org/10.1234/abc.def"');
});

test('helper layers (published false) are not listed', () => {
  const recs = [...big.slice(0, 5), { ...big[5], varCode: 'HW_AREA', published: 'FALSE' }];
  const html = renderToStaticMarkup(createElement(CatalogBrowser, { records: recs, selected: null, onSelect: () => undefined }));
  expect(html).toContain('5 of 5 indicators');
});
