/**
 * Controls of the layer comparison (issue 11, "two layers side by side"), shown over the map:
 * a button that starts it; then the second indicator (the {@link ChipSelect} combobox: adds on
 * Enter or click only), the mode (swipe with a divider, or side by side), a button that stops it,
 * and a read-out of both layers' values at the place under the pointer, the side under the
 * pointer marked. Light: the second map itself is {@link CompareMaps}, loaded on first use.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { VarRecord } from '../core/types';
import type { CellInfo } from '../../workers/protocol/raster';
import { ChipSelect, type ChipOption, type OptionSearch } from './ChipSelect';

/** Layer comparison mode: one map with a divider, or two synchronised maps. */
export type CompareMode = 'swipe' | 'split';

/** Which layer: `a` the main (left, or top on a phone) one, `b` the second. */
export type CompareSide = 'a' | 'b';

/** Where the pointer is: longitude, latitude (degrees) and the side of the comparison it is over; null = off the maps. */
export type CompareHover = { ll: [number, number]; side: CompareSide } | null;

let hoverNow: CompareHover = null;
const hoverSubs = new Set<() => void>();
/** Sets the place under the pointer (both maps of the comparison report here). */
export function setCompareHover(h: CompareHover): void {
  hoverNow = h;
  for (const f of hoverSubs) f();
}
function useCompareHover(): CompareHover {
  return useSyncExternalStore((f) => { hoverSubs.add(f); return () => { hoverSubs.delete(f); }; }, () => hoverNow);
}

/**
 * The name of a side in the layout: "Left"/"Right" beside each other (swipe on any screen, split
 * on a wide one), "Top"/"Bottom" for split on a phone, where the maps are stacked; '' when no
 * comparison is shown.
 */
export function compareSide(cmp: CompareMode | null, v2: string | null, phone: boolean, side: CompareSide): string {
  if (!cmp || !v2) return '';
  if (cmp === 'split' && phone) return side === 'a' ? 'Top' : 'Bottom';
  return side === 'a' ? 'Left' : 'Right';
}

/** Props of {@link CompareBar}. */
export interface CompareBarProps {
  /** Indicator options (e.g. `varOptions(catalog)`): the mapped one is left out. */
  options: ChipOption[];
  /** Ranked indicator search (the catalog's, with synonyms); default: words in the option labels. */
  search?: OptionSearch;
  /** Catalog records by code (labels and units of the read-out). */
  byCode: Map<string, VarRecord>;
  /** The mapped indicator (left/top side). */
  v: string | null;
  /** The second indicator; null = not chosen yet. */
  v2: string | null;
  /** The mode; null = no comparison. */
  cmp: CompareMode | null;
  /** Phone layout (split stacks the maps). */
  phone: boolean;
  /**
   * Changes the comparison (`cmp: null` stops it). `replace`: the change completes the step
   * before it (the first second layer chosen after "Compare layers"), so one Back leaves the comparison.
   */
  onChange: (patch: { v2?: string | null; cmp?: CompareMode | null }, opts?: { replace?: boolean }) => void;
  /** Reads a layer at a place (the raster worker's cell look-up). */
  cellInfo: (code: string, lon: number, lat: number) => Promise<CellInfo | null>;
  /** Formats a looked-up value with the record's decimals and unit. */
  fmt: (info: CellInfo, rec: VarRecord | undefined) => string;
}

/** The comparison controls (an overlay box of the map's overlay stack). */
export function CompareBar(p: CompareBarProps) {
  const hover = useCompareHover();
  const [vals, setVals] = useState<{ a: string; b: string; side: CompareSide; where: string } | null>(null);
  const seq = useRef(0);
  const start = useRef<HTMLButtonElement>(null);
  const wasOn = useRef(!!p.cmp);
  const options = useMemo(() => p.options.filter((o) => o.value !== p.v), [p.options, p.v]);
  const on = !!p.cmp;

  // Entering: focus goes to the second-layer box; leaving: back to the start button.
  useEffect(() => {
    if (on && !wasOn.current && !p.v2) setTimeout(() => document.getElementById('cmp-v2-input')?.focus(), 0);
    if (!on && wasOn.current && document.activeElement === document.body) start.current?.focus();
    wasOn.current = on;
  }, [on]);
  // On a phone the picker folds once a layer is chosen: focus goes to its summary, not the page.
  const pick = useRef<HTMLElement>(null);
  const picked = useRef(false);
  useEffect(() => {
    if (picked.current && p.phone && p.v2) pick.current?.focus();
    picked.current = false;
  }, [p.v2]);

  useEffect(() => {
    const s = ++seq.current;
    if (!hover || !p.v || !p.v2 || !p.cmp) { setVals(null); return; }
    const [lon, lat] = hover.ll;
    void Promise.all([p.cellInfo(p.v, lon, lat), p.cellInfo(p.v2, lon, lat)]).then(([a, b]) => {
      if (s !== seq.current) return;
      if (!a && !b) { setVals(null); return; }
      const i = (a ?? b)!;
      setVals({ a: a ? p.fmt(a, p.byCode.get(p.v!)) : 'no data', b: b ? p.fmt(b, p.byCode.get(p.v2!)) : 'no data', side: hover.side, where: [i.adm1, i.country].filter(Boolean).join(', ') || `${i.lon.toFixed(3)}, ${i.lat.toFixed(3)}` });
    }).catch(() => undefined);
  }, [hover, p.v, p.v2, p.cmp]);

  if (!on) {
    return (
      <div className="overlay cmp-bar off">
        <button type="button" className="small" ref={start} aria-expanded={false} onClick={() => p.onChange({ cmp: 'swipe' })}
          title="Compare the mapped layer with a second one: a swipe divider, or two maps side by side">Compare layers</button>
      </div>
    );
  }
  const recA = p.v ? p.byCode.get(p.v) : undefined;
  const recB = p.v2 ? p.byCode.get(p.v2) : undefined;
  const sideA = compareSide(p.cmp, p.v2, p.phone, 'a') || 'Left';
  const sideB = compareSide(p.cmp, p.v2, p.phone, 'b') || 'Right';
  return (
    <section className="overlay cmp-bar" aria-label="Compare layers" data-testid="compare-bar">
      <div className="row space cmp-head">
        <strong className="small">Compare</strong>
        <div className="cmp-modes" role="group" aria-label="Comparison view">
          <button type="button" className="small" aria-pressed={p.cmp === 'swipe'} onClick={() => p.onChange({ cmp: 'swipe' })}>Swipe</button>
          <button type="button" className="small" aria-pressed={p.cmp === 'split'} onClick={() => p.onChange({ cmp: 'split' })}>{p.phone ? 'Stacked' : 'Side by side'}</button>
        </div>
        <button type="button" className="ghost small" onClick={() => p.onChange({ cmp: null, v2: null })} aria-label="Stop comparing layers" title="Stop comparing layers">×</button>
      </div>
      {/* on a phone, once chosen, the picker folds away to leave the map its room */}
      <details className="cmp-pick" open={!p.v2 || (!p.phone && p.cmp !== 'split')} key={`${p.phone ? 'phone' : 'wide'}-${p.cmp === 'split' ? 'split' : 'swipe'}`}>
        <summary className="small" ref={pick}>{sideB} layer{recB ? <>: <span className="cmp-pick-name">{recB.varLabel}</span></> : null}</summary>
        <ChipSelect label={`${sideB} layer`} options={options} values={p.v2 ? [p.v2] : []} inputId="cmp-v2-input" search={p.search}
          onChange={(vs) => { picked.current = true; p.onChange({ v2: vs.length ? vs[vs.length - 1] : null }, { replace: !p.v2 && vs.length > 0 }); }}
          placeholder={p.v2 ? 'Replace with…' : 'Choose an indicator…'} emptyText="Choose the layer to compare with" />
      </details>
      {p.v2 && (!p.phone || vals) && (
        <div className="cmp-values small" aria-live="polite" data-testid="compare-values">
          <dl>
            <div className={vals?.side === 'a' ? 'here' : undefined}><dt>{sideA}: {recA?.varLabel ?? p.v}</dt><dd data-testid="compare-value-a">{vals ? vals.a : '—'}</dd></div>
            <div className={vals?.side === 'b' ? 'here' : undefined}><dt>{sideB}: {recB?.varLabel ?? p.v2}</dt><dd data-testid="compare-value-b">{vals ? vals.b : '—'}</dd></div>
          </dl>
          {!p.phone && <p className="muted">{vals ? <>At {vals.where}; pointer on the {(vals.side === 'a' ? sideA : sideB).toLowerCase()} side</> : 'Hover either side for both values.'}</p>}
        </div>
      )}
    </section>
  );
}
