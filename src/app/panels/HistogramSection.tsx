/**
 * Distribution of an indicator over the selection: 10 equal-width bins between the
 * selection's minimum and maximum (as the engine's `hist` statistic), measured as area (km² of
 * the 5′ cells in each bin, each cell's exact WGS84 area from its latitude; the default) or
 * as cell counts, with a toggle; one chart per selected country or region (at most 4). The
 * per-cell values come from one engine call (getLayerCells); the bins are counted in
 * `hist.ts`.
 */
import { useMemo, useState } from 'react';
import type { CellResult } from '../../core/api';
import type { GetLayerArgs } from '../../core/types';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { BarChart } from '../../ui/BarChart';
import { Progress } from '../../ui/Progress';
import { colLabel, errText, prettyUnit, type PanelCtx } from './common';
import { cellHistograms, histBars, type HistGroup, type HistMeasure } from './hist';

/** The most charts drawn (one per selected code). */
const MAX_CHARTS = 4;

/** The section (under the table builder). `value`: the indicator code. */
export function HistogramSection({ ctx, value }: { ctx: PanelCtx; value: string }) {
  const { state, byCode, iso } = ctx;
  const [measure, setMeasure] = useState<HistMeasure>('km2');
  const r = useRun<GetLayerArgs, CellResult>('hist-cells', (a, o) => getEngine().getLayerCells(a, o));
  const rec = byCode.get(value);
  const run = () => { if (!r.running && rec) r.run({ var: [value], iso3: state.iso.length ? [...state.iso] : ['SSA'] }); };
  const v = r.last?.args.var[0] ?? value;
  const dec = byCode.get(v)?.dec ?? 2;
  const charts = useMemo(() => {
    if (!r.last) return [];
    const codes = r.last.args.iso3 ?? ['SSA'];
    const groups: HistGroup[] = codes.slice(0, MAX_CHARTS).map((code) => {
      const e = iso.find((x) => x.code === code);
      return { name: e?.name ?? code, members: code === 'SSA' || codes.length === 1 ? null : new Set((e?.members ?? [code]).map((m) => m.toUpperCase())) };
    });
    return cellHistograms(r.last.data, groups).map((h) => ({ name: h.name, bars: histBars(h, dec) }));
  }, [r.last, dec, iso]);
  const continuous = rec?.type === 'continuous';
  const unit = byCode.get(v)?.unit;
  const what = measure === 'km2'
    ? 'area per interval (km² of the 5′ cells whose value falls in it, each cell\'s WGS84 area from its latitude)'
    : 'cells per interval (each 5′ cell counts 1, not weighted by area)';
  return (
    <section aria-labelledby="hist-h" className="result-block">
      <h3 id="hist-h">Distribution over the selection</h3>
      <div className="row">
        <button type="button" onClick={run} disabled={!continuous} aria-disabled={r.running}>Show distribution of {value}</button>
        <fieldset className="row hist-measure" data-testid="hist-measure">
          <legend className="small">Bars show</legend>
          <label><input type="radio" name="hist-measure" value="km2" checked={measure === 'km2'} onChange={() => setMeasure('km2')} /> Area (km²)</label>
          <label><input type="radio" name="hist-measure" value="cells" checked={measure === 'cells'} onChange={() => setMeasure('cells')} /> Cells</label>
        </fieldset>
        {r.running && <Progress label="Reading the cells" done={r.progress?.[0]} total={r.progress?.[1]} onCancel={r.cancel} />}
      </div>
      {!continuous && <p className="muted small">{value} is a class layer: build a table by it instead.</p>}
      {r.error && !r.running && <p className="msg error" role="alert">{errText(r.error)}</p>}
      <div data-testid="hist-result" data-measure={measure}>
        {charts.map((c) => c.bars.length > 0 && (
          <BarChart key={`${c.name}-${measure}`} rows={c.bars} x="bin" y={measure} order={c.bars.map((b) => b.bin)} max={10}
            title={`${colLabel(byCode, v)}: ${what}, ${c.name}; 10 equal bins between the minimum and maximum`}
            xTitle={`${byCode.get(v)?.varLabel ?? v}${unit ? ` (${prettyUnit(unit)})` : ''}`} yTitle={measure === 'km2' ? 'Area (km²)' : 'Cells'} />
        ))}
      </div>
    </section>
  );
}
