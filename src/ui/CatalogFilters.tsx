/**
 * Filters of the catalog browser: one group of checkboxes per facet (category, year,
 * source, type), each option with the number of indicators it gives together with the
 * search and the other filters. Options of one facet combine with OR, facets with AND.
 */
import type { CatalogFilters, FacetKey, FacetOption } from '../core/catalog/search';
import { FACET_KEYS, NO_VALUE } from '../core/catalog/search';

/** Display names of the facets. */
export const FACET_LABELS: Record<FacetKey, string> = { category: 'Category', year: 'Year', source: 'Source', type: 'Type' };

/** Props of {@link CatalogFiltersPanel}. */
export interface CatalogFiltersProps {
  /** Options with counts (from the search). */
  facets: Record<FacetKey, FacetOption[]>;
  /** Current selection. */
  filters: CatalogFilters;
  /** New selection. */
  onChange: (f: CatalogFilters) => void;
}

const optLabel = (k: FacetKey, v: string) => (v === NO_VALUE ? (k === 'year' ? 'no date' : 'none') : v);

/** The filter panel: collapsed by default, its summary says how many filters are on. */
export function CatalogFiltersPanel({ facets, filters, onChange }: CatalogFiltersProps) {
  const on = FACET_KEYS.flatMap((k) => (filters[k] ?? []).map((v) => [k, v] as const));
  const set = (k: FacetKey, v: string, checked: boolean) => {
    const cur = new Set(filters[k] ?? []);
    if (checked) cur.add(v); else cur.delete(v);
    onChange({ ...filters, [k]: [...cur] });
  };
  return (
    <div className="catalog-filters">
      <details>
        <summary>Filters{on.length ? ` (${on.length} on)` : ''}</summary>
        {FACET_KEYS.map((k) => (
          <fieldset key={k} className={`facet facet-${k}`}>
            <legend>{FACET_LABELS[k]}</legend>
            <div className="opts">
              {facets[k].map((o) => {
                const checked = (filters[k] ?? []).includes(o.value);
                return (
                  <label key={o.value} className={o.count === 0 && !checked ? 'zero' : undefined}>
                    <input type="checkbox" checked={checked} disabled={o.count === 0 && !checked} onChange={(e) => set(k, o.value, e.target.checked)} />
                    <span className="opt">{optLabel(k, o.value)}</span> <span className="n">{o.count}</span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
      </details>
      {on.length > 0 && (
        <ul className="chips" aria-label="Filters on">
          {on.map(([k, v]) => (
            <li key={`${k}:${v}`}>
              <button type="button" className="chip" aria-label={`Remove filter ${FACET_LABELS[k]}: ${optLabel(k, v)}`} onClick={() => set(k, v, false)}>
                {FACET_LABELS[k]}: {optLabel(k, v)} <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
          <li><button type="button" className="ghost small" onClick={() => onChange({})}>Clear filters</button></li>
        </ul>
      )}
    </div>
  );
}
