/**
 * The Statistics picker of Summaries and Areas (and their "Many polygons" upload): chips of the
 * zonal registry's statistics (none = the indicator's own value, its catalog formula), a `q`
 * field when `quantile` is chosen, `bins` when `histogram`, and the weights (none, or a people
 * or area layer of the catalog) when a weighted statistic is chosen. The choices live in the
 * link (`st`, `q`, `bins`, `wt`); {@link zonalRequest} turns them into the API's arguments.
 * Loaded on first use (its own chunk).
 */
import { useEffect, useMemo, useState } from 'react';
import { ChipSelect } from '../../ui/ChipSelect';
import { DEFAULT_BINS, DEFAULT_Q, MAX_BINS, MAX_Q } from '../../core/engine/zonal-ops';
import { needsWeights, statOptions, weightLayers } from './zonal-choice';
import type { PanelCtx } from './common';

/**
 * Probabilities typed as "0.1, 0.5, 0.9" (or percents "10, 50, 90" when every number is over 1):
 * the numbers 0..1, or a message naming `q`.
 */
export function readQ(t: string): number[] | string {
  const parts = t.split(/[\s,;]+/).filter(Boolean);
  if (!parts.length) return `q: type probabilities from 0 to 1, e.g. ${DEFAULT_Q.join(', ')}.`;
  const v = parts.map(Number);
  if (v.some((x) => !Number.isFinite(x))) return 'q: numbers only, e.g. 0.1, 0.5, 0.9.';
  const p = v.every((x) => x > 1 && x <= 100) ? v.map((x) => x / 100) : v;
  if (p.some((x) => x < 0 || x > 1)) return 'q: probabilities from 0 to 1 (or percents from 1 to 100).';
  if (p.length > MAX_Q) return `q: at most ${MAX_Q} probabilities.`;
  return [...new Set(p)];
}

/** The picker; `idPrefix` keeps its field ids unique per panel. */
export function ZonalPicker({ ctx, idPrefix }: { ctx: PanelCtx; idPrefix: string }) {
  const { state, update, byCode } = ctx;
  const options = useMemo(() => statOptions(), []);
  const weights = useMemo(() => weightLayers(byCode), [byCode]);
  const [qText, setQText] = useState(state.q?.join(', ') ?? '');
  useEffect(() => { setQText((t) => (typeof readQ(t) !== 'string' && JSON.stringify(readQ(t)) === JSON.stringify(state.q) ? t : state.q?.join(', ') ?? '')); }, [state.q]);
  const qErr = qText.trim() ? readQ(qText) : null;
  return (
    <div className="zonal-picker" data-testid={`${idPrefix}-stats`}>
      <ChipSelect label="Statistics" options={options} values={state.st} onChange={(v) => update({ st: v })} placeholder="Add a statistic (e.g. stdev, quantile)…"
        emptyText="The indicator's own value (its catalog formula: a mean for most layers, a sum for counts)" inputId={`${idPrefix}-stats-input`} />
      {state.st.includes('quantile') && (
        <label className="field">
          <span>q: quantile probabilities, 0 to 1 (R quantile type 7); empty = {DEFAULT_Q.join(', ')}</span>
          <input type="text" inputMode="decimal" data-testid={`${idPrefix}-q`} placeholder={DEFAULT_Q.join(', ')} value={qText} aria-invalid={typeof qErr === 'string'}
            onChange={(e) => { const t = e.target.value; setQText(t); const r = t.trim() ? readQ(t) : null; if (r === null) update({ q: null }); else if (typeof r !== 'string') update({ q: r }); }} />
          {typeof qErr === 'string' && <span className="msg error small" role="alert">{qErr}</span>}
        </label>
      )}
      {state.st.includes('histogram') && (
        <label className="field">
          <span>bins: histogram bins between each zone's lowest and highest value (1 to {MAX_BINS})</span>
          <input type="number" min={1} max={MAX_BINS} step={1} data-testid={`${idPrefix}-bins`} placeholder={String(DEFAULT_BINS)} value={state.bins ?? ''}
            onChange={(e) => { const n = Number(e.target.value); update({ bins: e.target.value && Number.isInteger(n) && n >= 1 && n <= MAX_BINS ? n : null }); }} />
        </label>
      )}
      {state.st.some(needsWeights) && (
        <label className="field">
          <span>weights: the layer each cell is weighted by (weighted statistics)</span>
          <select data-testid={`${idPrefix}-weights`} value={state.wt ?? ''} onChange={(e) => update({ wt: e.target.value || null })} aria-invalid={!state.wt}>
            <option value="">none (choose one for {state.st.filter(needsWeights).join(', ')})</option>
            {weights.map((r) => <option key={r.varCode} value={r.varCode}>{r.varLabel} ({r.unit.trim()}, {r.varCode})</option>)}
          </select>
        </label>
      )}
    </div>
  );
}
