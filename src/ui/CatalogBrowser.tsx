/**
 * Catalog browser: a search box (ranked full-text search with synonyms, see
 * core/catalog/search), filters by category, year, source and type with counts, and one
 * virtualised list that stays instant at hundreds of records: the category / subcategory /
 * item tree (ARIA tree) when nothing is searched or filtered, else the ranked results
 * (ARIA listbox). Keyboard: ArrowDown from the search box into the list; arrows, Home/End,
 * PageUp/PageDown move; Enter (or Space) maps a record or opens/closes a branch;
 * ArrowRight/ArrowLeft open/close branches. Rows carry aria-level/aria-setsize/aria-posinset
 * so screen readers know positions in the virtual list; the list keeps focus and points at
 * the active row with aria-activedescendant. Records whose `published` is false (helper
 * layers of an ingested catalog) are not listed.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { VarRecord } from '../core/types';
import { isUnpublished } from '../core/catalog';
import { buildCatalogIndex, type CatalogFilters, type FacetKey, type SearchHit } from '../core/catalog/search';
import { CatalogFiltersPanel } from './CatalogFilters';
import { NATIONAL_NOTE, yearRangeText, type SeriesInfo } from './series-info';

/** Props of {@link CatalogBrowser}. */
export interface CatalogBrowserProps {
  records: VarRecord[];
  selected: string | null;
  onSelect: (code: string) => void;
  /** The catalog is still loading. */
  loading?: boolean;
  /** Series by code (src/ui/series-info.ts `catalogSeries`): their rows carry a "Series" badge with the years. */
  series?: Map<string, SeriesInfo>;
}

/** Groups records as category -> subcategory -> records, in catalog order. */
export function groupCatalog(records: readonly VarRecord[]): Map<string, Map<string, VarRecord[]>> {
  const out = new Map<string, Map<string, VarRecord[]>>();
  for (const r of records) {
    const c = r.cat1 || 'Other';
    const s = r.cat2 || '—';
    if (!out.has(c)) out.set(c, new Map());
    const m = out.get(c)!;
    if (!m.has(s)) m.set(s, []);
    m.get(s)!.push(r);
  }
  return out;
}

/** Groups a subcategory's records by item (cat3), in catalog order. */
export function groupItems(records: readonly VarRecord[]): Map<string, VarRecord[]> {
  const out = new Map<string, VarRecord[]>();
  for (const r of records) {
    const k = r.cat3 || '—';
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(r);
  }
  return out;
}

/** One visible row of the catalog list (a branch of the tree, or a record). */
export interface CatalogRow {
  /** Unique key (also the DOM id suffix). */
  key: string;
  /** "branch" (category, subcategory, item) or "record". */
  kind: 'branch' | 'record';
  /** Tree level, 1 = category (results list: 1). */
  level: number;
  /** Number of siblings including this row, and its 1-based position among them. */
  setsize: number;
  posinset: number;
  /** Text of a branch (category, subcategory or item name). */
  label: string;
  /** Records under a branch. */
  count: number;
  /** Key of the parent branch ("" at level 1). */
  parent: string;
  /** Branch open. */
  expanded?: boolean;
  /** The record of a record row. */
  rec?: VarRecord;
  /** A note shown after the code: the item of a record not under an item branch, or why it matched. */
  note?: string;
}

const catKey = (c: string) => `c:${c}`;
const subKey = (c: string, s: string) => `s:${c}\u0001${s}`;
const itemKey = (c: string, s: string, i: string) => `i:${c}\u0001${s}\u0001${i}`;

/** Keys of the branches leading to a record. */
export function branchKeys(r: VarRecord): string[] {
  const c = r.cat1 || 'Other', s = r.cat2 || '—', i = r.cat3 || '—';
  return [catKey(c), subKey(c, s), itemKey(c, s, i)];
}

/**
 * The visible rows of the tree: categories, their subcategories when open, their items
 * (a branch of its own only where a subcategory holds more than one item and the item more
 * than one record) and records when open.
 */
export function treeRows(groups: Map<string, Map<string, VarRecord[]>>, expanded: ReadonlySet<string>): CatalogRow[] {
  const rows: CatalogRow[] = [];
  const cats = [...groups];
  cats.forEach(([cat, subs], ci) => {
    const ck = catKey(cat);
    const n = [...subs.values()].reduce((a, b) => a + b.length, 0);
    const open = expanded.has(ck);
    rows.push({ key: ck, kind: 'branch', level: 1, setsize: cats.length, posinset: ci + 1, label: cat, count: n, parent: '', expanded: open });
    if (!open) return;
    const subList = [...subs];
    subList.forEach(([sub, list], si) => {
      const sk = subKey(cat, sub);
      const sOpen = expanded.has(sk);
      rows.push({ key: sk, kind: 'branch', level: 2, setsize: subList.length, posinset: si + 1, label: sub, count: list.length, parent: ck, expanded: sOpen });
      if (!sOpen) return;
      const items = [...groupItems(list)];
      const branchy = items.length > 1;
      // children of the subcategory: item branches (items of several records) and records
      const kids: Array<{ item: string; recs: VarRecord[] }> = [];
      for (const [item, recs] of items) {
        if (branchy && recs.length > 1) kids.push({ item, recs });
        else for (const r of recs) kids.push({ item: '', recs: [r] });
      }
      kids.forEach((k, ki) => {
        if (k.item) {
          const ik = itemKey(cat, sub, k.item);
          const iOpen = expanded.has(ik);
          rows.push({ key: ik, kind: 'branch', level: 3, setsize: kids.length, posinset: ki + 1, label: k.item, count: k.recs.length, parent: sk, expanded: iOpen });
          if (iOpen) k.recs.forEach((r, ri) => rows.push({ key: `r:${r.varCode}`, kind: 'record', level: 4, setsize: k.recs.length, posinset: ri + 1, label: r.varLabel, count: 1, parent: ik, rec: r }));
        } else {
          const r = k.recs[0];
          rows.push({ key: `r:${r.varCode}`, kind: 'record', level: 3, setsize: kids.length, posinset: ki + 1, label: r.varLabel, count: 1, parent: sk, rec: r, note: r.cat3 && r.cat3 !== sub && branchy ? r.cat3 : undefined });
        }
      });
    });
  });
  return rows;
}

const FIELD_NOTE: Record<string, string> = { description: 'description', source: 'source', year: 'year', category: 'category', title: 'title', more: 'other fields' };

/** Rows of the results list: one per hit, with a note saying where a weak hit matched. */
export function resultRows(hits: readonly SearchHit[]): CatalogRow[] {
  return hits.map((h, i) => {
    const strong = h.fields.some((f) => f === 'code' || f === 'label');
    const where = strong ? '' : h.fields.map((f) => FIELD_NOTE[f]).filter(Boolean).join(', ');
    const note = [h.viaSynonym ? 'related word' : '', where ? `in ${where}` : ''].filter(Boolean).join(', ');
    return { key: `r:${h.rec.varCode}`, kind: 'record', level: 1, setsize: hits.length, posinset: i + 1, label: h.rec.varLabel, count: 1, parent: '', rec: h.rec, note: note || undefined };
  });
}

const ROW_H = { branch: 30, record: 42 } as const;

function Count({ n }: { n: number }) {
  return <span className="count">{n}<span className="sr-only"> indicator{n === 1 ? '' : 's'}</span></span>;
}

/** Props of {@link CatalogRowItem}. */
interface CatalogRowItemProps {
  row: CatalogRow;
  /** The element id (aria-activedescendant). */
  id: string;
  /** Index in the rows (the virtualizer measures by it). */
  index: number;
  /** Top of the row, px. */
  start: number;
  /** The keyboard's active row. */
  active: boolean;
  /** The selected indicator's row. */
  selected: boolean;
  /** Search results (a flat listbox) rather than the category tree. */
  listMode: boolean;
  /** The virtualizer's measuring ref. */
  measure: (el: Element | null) => void;
  onClick: () => void;
  /** The record's series, if it is one: a "Series" badge with its years. */
  series?: SeriesInfo;
}

/** One row of the catalog: a category branch (tree item) or an indicator (tree item or option). */
function CatalogRowItem({ row, id, index, start, active, selected: isSel, listMode, measure, onClick, series }: CatalogRowItemProps) {
  const common = {
    id,
    role: listMode ? 'option' : 'treeitem',
    tabIndex: -1,
    'aria-setsize': row.setsize,
    'aria-posinset': row.posinset,
    'aria-level': listMode ? undefined : row.level,
    // rows grow to their wrapped titles (measured), never shorter than ROW_H
    'data-index': index,
    ref: measure,
    style: { transform: `translateY(${start}px)`, minHeight: ROW_H[row.kind], paddingLeft: listMode ? 6 : 6 + (row.level - 1) * 12 },
    onMouseDown: (e: MouseEvent) => e.preventDefault(),
    onClick,
  };
  const cls = `${active ? ' active' : ''}`;
  if (row.kind === 'branch') {
    return (
      <button type="button" {...common} aria-expanded={row.expanded} className={`row branch lvl${row.level}${cls}`}>
        <span className="twist" aria-hidden="true">{row.expanded ? '▾' : '▸'}</span>
        <span className="lbl">{row.label}</span>{' '}
        <Count n={row.count} />
      </button>
    );
  }
  const r = row.rec!;
  return (
    <button type="button" {...common} aria-selected={isSel} data-code={r.varCode} title={r.varLabel}
      className={`row item${isSel ? ' sel' : ''}${cls}`}>
      <span className="lbl">{r.varLabel}</span>
      <span className="sub"><code>{r.varCode}</code>
        {series && <span className="badge series" title={series.kind === 'national' ? `Yearly series; ${NATIONAL_NOTE}` : `Yearly series ${series.stem}`}> Series {yearRangeText(series.years)}</span>}
        {listMode && <span className="muted"> · {[r.cat1, r.cat2].filter(Boolean).join(' › ')}</span>}
        {row.note && <span className="muted note"> · {row.note}</span>}
      </span>
    </button>
  );
}

/** Builds the search index's text index while the page is idle, so the first keystroke does not pay for it. */
function useIdlePrepare(index: { prepare: () => void }, n: number): void {
  useEffect(() => {
    if (!n) return;
    const ric = (globalThis as any).requestIdleCallback as ((f: () => void, o?: { timeout: number }) => number) | undefined;
    const id = ric ? ric(() => index.prepare(), { timeout: 3000 }) : setTimeout(() => index.prepare(), 500);
    return () => { if (ric) (globalThis as any).cancelIdleCallback(id); else clearTimeout(id); };
  }, [index, n]);
}

/** The catalog browser component. */
export function CatalogBrowser({ records: all, selected, onSelect, loading = false, series }: CatalogBrowserProps) {
  // helper layers of an ingested catalog (published false) are not listed, as in category()
  const records = useMemo(() => all.filter((r) => !isUnpublished(r.published)), [all]);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const [q, setQ] = useState('');
  const [filters, setFilters] = useState<CatalogFilters>({});
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [active, setActive] = useState(0);
  const index = useMemo(() => buildCatalogIndex(records), [records]);
  useIdlePrepare(index, records.length);
  const result = useMemo(() => index.search(q, filters), [index, q, filters]);
  const filtering = Object.values(filters).some((v) => v && v.length);
  const listMode = result.hasQuery || filtering;
  const groups = useMemo(() => groupCatalog(records), [records]);
  const rows = useMemo(() => (listMode ? resultRows(result.hits) : treeRows(groups, expanded)), [listMode, result, groups, expanded]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => ROW_H[rows[i]?.kind ?? 'record'],
    overscan: 10,
    initialRect: { width: 300, height: 480 },
    getItemKey: (i) => rows[i]?.key ?? i,
  });

  // Open the branches of the selected record and bring it into view.
  useEffect(() => {
    const r = selected ? records.find((x) => x.varCode === selected) : undefined;
    if (!r) return;
    setExpanded((prev) => {
      const keys = branchKeys(r);
      if (keys.every((k) => prev.has(k))) return prev;
      const next = new Set(prev);
      for (const k of keys) next.add(k);
      return next;
    });
  }, [selected, records]);
  const selIndex = rows.findIndex((r) => r.rec?.varCode === selected);
  const lastScrolled = useRef<string | null>(null);
  useEffect(() => {
    if (selIndex < 0 || listMode || lastScrolled.current === selected) return;
    lastScrolled.current = selected;
    virt.scrollToIndex(selIndex, { align: 'auto' });
  }, [selIndex, listMode, selected]);
  // New results: the first row is active.
  useEffect(() => { setActive(0); }, [q, filters, listMode]);
  const act = Math.min(active, Math.max(0, rows.length - 1));

  const toggle = (key: string, open?: boolean) => setExpanded((prev) => {
    const next = new Set(prev);
    if (open ?? !next.has(key)) next.add(key); else next.delete(key);
    return next;
  });
  const moveTo = (i: number) => {
    const n = Math.max(0, Math.min(rows.length - 1, i));
    setActive(n);
    virt.scrollToIndex(n, { align: 'auto' });
  };
  const activate = (row: CatalogRow) => {
    if (row.kind === 'record' && row.rec) onSelect(row.rec.varCode);
    else toggle(row.key);
  };
  const onListKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[act];
    if (!row) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(act + 1),
      ArrowUp: () => (act === 0 ? document.getElementById(`${uid}-q`)?.focus() : moveTo(act - 1)),
      Home: () => moveTo(0),
      End: () => moveTo(rows.length - 1),
      PageDown: () => moveTo(act + 10),
      PageUp: () => moveTo(act - 10),
      Enter: () => activate(row),
      ' ': () => activate(row),
      ArrowRight: () => {
        if (row.kind === 'branch' && !row.expanded) toggle(row.key, true);
        else if (row.kind === 'branch') moveTo(act + 1);
      },
      ArrowLeft: () => {
        if (row.kind === 'branch' && row.expanded) toggle(row.key, false);
        else if (row.parent) moveTo(rows.findIndex((r) => r.key === row.parent));
      },
    };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); }
  };
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && rows.length) { e.preventDefault(); listRef.current?.focus(); moveTo(0); }
    if (e.key === 'Enter' && listMode && rows[0]?.rec) { e.preventDefault(); onSelect(rows[0].rec.varCode); }
  };

  const shown = listMode ? result.hits.length : records.length;
  const activeRow = rows[act];
  const role = listMode ? 'listbox' : 'tree';
  return (
    <nav className="catalog" aria-label="Indicator catalog">
      <label className="field">
        <span>Search indicators</span>
        <input id={`${uid}-q`} type="search" value={q} onChange={(e) => setQ(e.target.value)} onKeyDown={onSearchKey}
          placeholder="words, code, category, source, year" aria-describedby="catalog-count" aria-controls={`${uid}-list`} autoComplete="off" />
      </label>
      <CatalogFiltersPanel facets={result.facets} filters={filters} onChange={setFilters} />
      <p id="catalog-count" className="muted small" aria-live="polite">{loading ? 'Loading catalog…' : `${shown} of ${records.length} indicators`}</p>
      {!loading && records.length > 0 && rows.length === 0 && (
        <p className="msg warn">No indicator matches{q.trim() ? ` “${q.trim()}”` : ''}{filtering ? ' with these filters' : ''}.
          {filtering && <> <button type="button" className="ghost small" onClick={() => setFilters({})}>Clear filters</button></>}</p>
      )}
      <div className="catalog-scroll" ref={scrollRef}>
        <div ref={listRef} id={`${uid}-list`} role={role} tabIndex={rows.length ? 0 : -1}
          aria-label={listMode ? 'Search results' : 'Indicator categories'} aria-activedescendant={activeRow ? `${uid}-${act}` : undefined}
          onKeyDown={onListKey} className="catalog-list" style={{ height: virt.getTotalSize() }}>
          {virt.getVirtualItems().map((v) => {
            const row = rows[v.index];
            if (!row) return null;
            return (
              <CatalogRowItem key={v.key} row={row} id={`${uid}-${v.index}`} index={v.index} start={v.start} active={v.index === act} selected={row.rec?.varCode === selected}
                listMode={listMode} measure={virt.measureElement} series={row.rec ? series?.get(row.rec.varCode) : undefined} onClick={() => { setActive(v.index); listRef.current?.focus({ preventScroll: true }); activate(row); }} />
            );
          })}
        </div>
      </div>
    </nav>
  );
}

/** Keys of the facets that have a selection (for tests and the filter summary). */
export function activeFacets(f: CatalogFilters): FacetKey[] {
  return (Object.keys(f) as FacetKey[]).filter((k) => f[k]?.length);
}
