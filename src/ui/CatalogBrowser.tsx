/**
 * Catalog browser: category / subcategory / item tree with counts (the item level is a
 * branch of its own only where a subcategory holds more than one item), a search box over
 * codes, labels and categories, keyboard navigable (native details/summary and buttons).
 */
import { useMemo, useState } from 'react';
import type { VarRecord } from '../core/types';

/** Props of {@link CatalogBrowser}. */
export interface CatalogBrowserProps {
  records: VarRecord[];
  selected: string | null;
  onSelect: (code: string) => void;
  /** The catalog is still loading. */
  loading?: boolean;
}

const tokens = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * Case-insensitive match of every word of `q` at the start of a word of the code, labels
 * or categories ("rain" finds "Rainfall", not "Terrain"), or as a prefix of the code
 * ("dist_co" finds DIST_COAST). Plain text comparison, no regular expression from input.
 */
export function matchRecord(r: VarRecord, q: string): boolean {
  const query = q.trim().toLowerCase();
  if (!query) return true;
  if (r.varCode.toLowerCase().startsWith(query)) return true;
  const words = tokens(query);
  if (words.length === 0) return true;
  const hay = tokens(`${r.varCode} ${r.varLabel} ${r.varTitle} ${r.cat1} ${r.cat2} ${r.cat3}`);
  return words.every((w) => hay.some((h) => h.startsWith(w)));
}

/** Groups records as category -> subcategory -> records, in catalog order. */
export function groupCatalog(records: VarRecord[]): Map<string, Map<string, VarRecord[]>> {
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
export function groupItems(records: VarRecord[]): Map<string, VarRecord[]> {
  const out = new Map<string, VarRecord[]>();
  for (const r of records) {
    const k = r.cat3 || '—';
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(r);
  }
  return out;
}

function Count({ n }: { n: number }) {
  return <span className="count" aria-label={`${n} indicator${n === 1 ? '' : 's'}`}>{n}</span>;
}

function ItemButton({ r, selected, onSelect, note }: { r: VarRecord; selected: string | null; onSelect: (code: string) => void; note?: string }) {
  return (
    <button type="button" className={`item${r.varCode === selected ? ' sel' : ''}`} aria-pressed={r.varCode === selected} onClick={() => onSelect(r.varCode)} data-code={r.varCode}>
      <span className="lbl">{r.varLabel}</span>
      <code>{r.varCode}</code>
      {note && <span className="muted small"> · {note}</span>}
    </button>
  );
}

/** The catalog browser component. */
export function CatalogBrowser({ records, selected, onSelect, loading = false }: CatalogBrowserProps) {
  const [q, setQ] = useState('');
  const filtered = useMemo(() => records.filter((r) => matchRecord(r, q)), [records, q]);
  const groups = useMemo(() => groupCatalog(filtered), [filtered]);
  const searching = q.trim().length > 0;
  return (
    <nav className="catalog" aria-label="Indicator catalog">
      <label className="field">
        <span>Search indicators</span>
        <input type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="code, label or category" aria-describedby="catalog-count" />
      </label>
      <p id="catalog-count" className="muted small" aria-live="polite">{loading ? 'Loading catalog…' : `${filtered.length} of ${records.length} indicators`}</p>
      {!loading && records.length > 0 && filtered.length === 0 && <p className="msg warn">No indicator matches “{q}”.</p>}
      <ul className="tree" role="list">
        {[...groups].map(([cat, subs]) => {
          const n = [...subs.values()].reduce((a, b) => a + b.length, 0);
          return (
            <li key={cat}>
              <details open={searching || [...subs.values()].some((l) => l.some((r) => r.varCode === selected))}>
                <summary><span>{cat}</span> <Count n={n} /></summary>
                <ul role="list">
                  {[...subs].map(([sub, list]) => {
                    const items = groupItems(list);
                    const branch = items.size > 1;
                    return (
                      <li key={sub}>
                        <details open={searching || list.some((r) => r.varCode === selected)}>
                          <summary><span>{sub}</span> <Count n={list.length} /></summary>
                          <ul role="list" className={branch ? 'items' : undefined}>
                            {branch
                              ? [...items].map(([item, recs]) => (
                                <li key={item} className="item-branch">
                                  <details open>
                                    <summary><span>{item}</span> {recs.length > 1 && <Count n={recs.length} />}</summary>
                                    <ul role="list">
                                      {recs.map((r) => <li key={r.varCode}><ItemButton r={r} selected={selected} onSelect={onSelect} /></li>)}
                                    </ul>
                                  </details>
                                </li>
                              ))
                              : list.map((r) => (
                                <li key={r.varCode}><ItemButton r={r} selected={selected} onSelect={onSelect} note={r.cat3 && r.cat3 !== sub ? r.cat3 : undefined} /></li>
                              ))}
                          </ul>
                        </details>
                      </li>
                    );
                  })}
                </ul>
              </details>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
