/**
 * Distribution of an indicator over the selection: the engine's `hist` statistic (cell
 * counts in 10 equal-width bins between the selection's minimum and maximum, unweighted),
 * with `min` and `max` for the bin edges, one chart per country or region (at most 4).
 */
import { useMemo } from 'react';
import type { GetLayerArgs, Row } from '../../core/types';
import type { TableResult } from '../../core/api';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { BarChart } from '../../ui/BarChart';
import { Progress } from '../../ui/Progress';
import { colLabel, errText, prettyUnit, type PanelCtx } from './common';
import { histBars } from './hist';

/** The section (under the table builder). `value`: the indicator code. */
export function HistogramSection({ ctx, value }: { ctx: PanelCtx; value: string }) {
  const { state, byCode } = ctx;
  const r = useRun<GetLayerArgs, TableResult>('hist', (a, o) => getEngine().getLayerTable(a, o));
  const rec = byCode.get(value);
  const run = () => { if (!r.running && rec) r.run({ var: [value], iso3: state.iso.length ? [...state.iso] : ['SSA'], stats: ['min', 'max', 'hist'] }); };
  const v = r.last?.args.var[0] ?? value;
  const dec = byCode.get(v)?.dec ?? 2;
  const charts = useMemo(() => (r.last?.data.rows ?? []).slice(0, 4).map((row: Row) => ({
    name: String(row.ADM0_NAME ?? row.ISO3 ?? (r.last?.args.iso3 ?? ['SSA']).join(', ')),
    bars: histBars(row[`${v}_hist`], Number(row[`${v}_min`]), Number(row[`${v}_max`]), dec),
  })), [r.last, v, dec]);
  const continuous = rec?.type === 'continuous';
  return (
    <section aria-labelledby="hist-h" className="result-block">
      <h3 id="hist-h">Distribution over the selection</h3>
      <div className="row">
        <button type="button" onClick={run} disabled={!continuous} aria-disabled={r.running}>Show distribution of {value}</button>
        {r.running && <Progress label="Counting cells" done={r.progress?.[0]} total={r.progress?.[1]} onCancel={r.cancel} />}
      </div>
      {!continuous && <p className="muted small">{value} is a class layer: build a table by it instead.</p>}
      {r.error && !r.running && <p className="msg error" role="alert">{errText(r.error)}</p>}
      <div data-testid="hist-result">
        {charts.map((c) => c.bars.length > 0 && (
          <BarChart key={c.name} rows={c.bars} x="bin" y="cells" order={c.bars.map((b) => b.bin)} max={10}
            title={`${colLabel(byCode, v)}: cells per interval, ${c.name} (10 equal bins between the minimum and maximum, cells not weighted by area)`}
            xTitle={`${byCode.get(v)?.varLabel ?? v}${byCode.get(v)?.unit ? ` (${prettyUnit(byCode.get(v)!.unit)})` : ''}`} yTitle="Cells" />
        ))}
      </div>
    </section>
  );
}
