/** Compare: units ranked by similarity to a clicked ADM1 unit or cell (`similar`), as a list and a map. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TableResult } from '../../core/api';
import type { Row } from '../../core/types';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { ResultTable } from '../../ui/ResultTable';
import { RunControls } from '../../ui/RunControls';
import { ResultFrame } from '../../ui/ResultFrame';
import type { CellInfo } from '../../../workers/protocol/raster';
import { colLabel, errText, summaryVars, tableColumns, type PanelCtx } from './common';

/** Arguments of similar. */
export interface SimilarArgs { x: string | number; var: string[]; by: number; iso3?: string[] }

/** Props of the compare panel. */
export interface ComparePanelProps {
  ctx: PanelCtx;
  picked: CellInfo | null;
  onResult: (r: { rows: Row[]; by: number } | null) => void;
}

/** The unit (name, else code or cell) first, kept in view; then rank and score, the other keys and the values. */
function orderCols(cols: string[]): string[] {
  const unit = ['ADM1_NAME_ALT', 'ADM1_CODE_ALT', 'CELL5M'].find((c) => cols.includes(c));
  const first: string[] = [...(unit ? [unit] : []), ...cols.filter((c) => c === 'rank' || c === 'score')];
  return [...first, ...cols.filter((c) => !first.includes(c))];
}

/** The panel. */
export function ComparePanel({ ctx, picked, onResult }: ComparePanelProps) {
  const { state, byCode } = ctx;
  const [level, setLevel] = useState<1 | 0>(1);
  const [scope, setScope] = useState<'country' | 'selection'>('country');
  const [msg, setMsg] = useState<string | null>(null);
  const r = useRun<SimilarArgs, TableResult>('similar', (a, o) => getEngine().similar(a, o), { setQuery: ctx.setQuery, result: (d) => d });
  const vars = summaryVars(state);
  useEffect(() => { if (r.last) onResult({ rows: r.last.data.rows, by: r.last.args.by }); else if (r.error) onResult(null); }, [r.last, r.error, onResult]);
  const table = useMemo(() => (r.last ? tableColumns(r.last.data.rows, orderCols(r.last.data.columns.map((c) => c.name))) : null), [r.last]);
  const label = useCallback((c: string) => (c === 'score' ? 'Score (low = similar)' : c === 'rank' ? 'Rank' : colLabel(byCode, c)), [byCode]);
  // every number of a column with the same decimals: the indicator's dec, 3 for the score
  const decimals = useMemo(() => Object.fromEntries([...(r.last?.args.var ?? []).map((v) => [v, byCode.get(v)?.dec ?? 2] as const), ['score', 3] as const]), [r.last, byCode]);

  const autoRun = useRef(false);
  const submit = (auto = false) => {
    if (r.running) return;
    autoRun.current = true; // a run of the user's: the link's run is done with
    setMsg(null);
    if (!picked) return setMsg('Click a place on the map first to choose the reference unit or cell.');
    if (vars.length === 0) return setMsg('Choose at least one indicator to compare on.');
    const x = level === 1 ? picked.adm1Code : picked.cell5m;
    if (x === undefined) return setMsg('The clicked place has no ADM1 unit; click inside a country.');
    const iso3 = scope === 'country' ? (picked.iso3 ? [picked.iso3] : undefined) : state.iso.length ? state.iso : undefined;
    const a: SimilarArgs = { x, var: vars, by: level, ...(iso3 ? { iso3 } : {}) };
    r.run(a, { method: 'similar', args: { ...a }, label: `Similar to ${level === 1 ? `${picked.adm1 ?? x} (${x})` : `cell ${x}`}` });
    if (!auto && state.run !== 'compare') ctx.update({ run: 'compare' });
  };
  // A link with run=compare (and a picked place) shows its ranking: run once.
  useEffect(() => {
    if (autoRun.current || state.run !== 'compare' || !picked || !ctx.catalog.length) return;
    autoRun.current = true;
    submit(true);
  }, [picked, ctx.catalog, state.run]);
  const leftOut = (r.last?.data as { leftOut?: { reason: string } } | undefined)?.leftOut;
  return (
    <section aria-labelledby="cmp-h">
      <h2 id="cmp-h">Compare</h2>
      <p className="small">Reference: {picked ? <strong>{level === 1 ? `${picked.adm1 ?? '—'} (${picked.adm1Code ?? '—'}), ${picked.country ?? ''}` : `cell ${picked.cell5m}`}</strong> : <span className="muted">click the map to choose</span>}</p>
      <fieldset className="radios">
        <legend>Compare</legend>
        <label><input type="radio" name="cmp-level" checked={level === 1} onChange={() => setLevel(1)} /> ADM1 units</label>
        <label><input type="radio" name="cmp-level" checked={level === 0} onChange={() => setLevel(0)} /> Cells</label>
      </fieldset>
      <fieldset className="radios">
        <legend>Among</legend>
        <label><input type="radio" name="cmp-scope" checked={scope === 'country'} onChange={() => setScope('country')} /> the reference's country</label>
        <label><input type="radio" name="cmp-scope" checked={scope === 'selection'} onChange={() => setScope('selection')} /> the chosen countries ({state.iso.length ? state.iso.join(', ') : 'SSA'})</label>
      </fieldset>
      <p className="muted small">On: {vars.length ? vars.join(', ') : 'no indicator chosen'}</p>
      <RunControls run={r} label="Find similar" progressLabel="Ranking" onRun={() => submit()} message={msg} error={r.error && errText(r.error)} />
      {r.last && (
        <ResultFrame run={r} testId="compare-result">
          <p className="muted small">{r.last.data.rows.length} {r.last.args.by === 1 ? 'units' : 'cells'} ranked (lower score = more similar); the map shades the most similar darkest.</p>
          {leftOut && <p className="msg warn small" role="status" data-testid="compare-left-out">{leftOut.reason} Missing values never make a unit similar.</p>}
          <ResultTable rows={r.last.data.rows} columns={table?.cols} caption="Similar units" note={table?.country ?? undefined} colLabel={label} valueCols={r.last.args.var} max={500} decimals={decimals} />
        </ResultFrame>
      )}
    </section>
  );
}
