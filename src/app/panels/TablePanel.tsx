/**
 * Table builder (TABLR): rows x columns by two domains (class layers, or continuous layers
 * cut at their catalog breaks), one indicator's values in the cells, row, column and overall
 * totals computed by the engine with the indicator's own aggregation formula (summaries by
 * [rows, columns], by [rows], by [columns]; never a sum or mean of the cells shown). With
 * several countries or regions, one block per code and the totals over all of them ("All
 * selected": the same summaries over the union of their cells), or, when a domain is the
 * country, one table whose "All selected" column or row is that total. Downloads as CSV and
 * XLSX (exceljs, loaded on first use), totals included and labelled. Queries: src/ui/pivot.ts.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CallOptions } from '../../core/api';
import type { VarRecord } from '../../core/types';
import { getEngine } from '../services';
import { loadClassLabels } from '../bundle';
import { useRun } from '../useRun';
import { ChipSelect } from '../../ui/ChipSelect';
import { PivotTable } from '../../ui/PivotTable';
import { RunControls } from '../../ui/RunControls';
import { ResultFrame } from '../../ui/ResultFrame';
import { HistogramSection } from './HistogramSection';
import { yearRangeText } from '../../ui/series-info';
import { ALL_SELECTED, COUNTRY_CODES, YEAR_DOMAIN, fetchTableData, pivotCsv, pivotGrid, pivotPercent, tablePivot, type PivotPercent, type TableArgs, type TableData } from '../../ui/pivot';
import { intervalText, requestBreaks } from './intervals';
import { needsWeights, statLabel, tableStatOptions, weightLayers } from './zonal-choice';
import { codesKnown, colLabel, errText, fmtNum, isoOptions, keyOrder, prettyUnit, varSearch, type PanelCtx } from './common';

/** Runs the table's summaries on the app's engine; key orders from the class tables (classes) or interval order. */
export function fetchTable(a: TableArgs, o: CallOptions): Promise<TableData> {
  return fetchTableData(getEngine(), a, o, async (code, keys) => {
    const cls = !code.startsWith('ADM') ? await loadClassLabels(code, o.signal).catch(() => undefined) : undefined;
    return keyOrder(keys, cls);
  });
}

function save(bytes: BlobPart, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const el = document.createElement('a');
  el.href = url; el.download = name; el.rel = 'noopener';
  document.body.append(el); el.click(); el.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What the XLSX file's sheets say of the table: the cells' record, their decimals, and labels. */
interface TableFileInfo {
  rec: VarRecord | undefined;
  dec: number;
  valueLabel: string;
  domLabel: (code: string) => string;
}

/** The table's workbook (exceljs, loaded on first use): the grid with number formats, and an "about" sheet. */
async function tableXlsx(args: TableArgs, grid: Array<Array<string | number | null>>, { rec, dec, valueLabel, domLabel }: TableFileInfo): Promise<ArrayBuffer> {
  const mod = await import('exceljs');
  const ExcelJS = ((mod as unknown as { default?: typeof mod }).default ?? mod) as typeof mod;
  const wb = new ExcelJS.Workbook();
  wb.creator = 'indapi3';
  const ws = wb.addWorksheet(args.value.slice(0, 31));
  for (const x of grid) ws.addRow(x);
  ws.getRow(1).font = { bold: true };
  const fmt = dec > 0 ? `#,##0.${'0'.repeat(Math.min(6, dec))}` : '#,##0';
  ws.eachRow((rw, i) => { if (i > 1) rw.eachCell((c) => { if (typeof c.value === 'number') c.numFmt = fmt; }); });
  const about = wb.addWorksheet('about');
  about.addRows([
    ['Cells', `${args.value}: ${valueLabel}`],
    ['Rows', `${args.row}: ${domLabel(args.row)}`],
    ['Columns', `${args.col}: ${domLabel(args.col)}`],
    ['Countries or regions', args.iso3.join(', ')],
    ['Totals', `computed with ${args.stat ? `the statistic ${args.stat}${args.weights ? ` (weights ${args.weights})` : ''}` : `the indicator's aggregation formula (${rec?.aggFunR ?? ''})`} over the cells of the row, column or selection; "${ALL_SELECTED}": over the cells of every selected country or region together; empty: no value`],
    ['Source', rec?.sources ?? ''],
  ]);
  return (await wb.xlsx.writeBuffer()) as ArrayBuffer;
}

/** The table's CSV and XLSX downloads (totals included and labelled); an XLSX failure goes to `setMsg`. */
function useTableDownloads(last: { args: TableArgs } | null, pivot: ReturnType<typeof tablePivot> | null, info: TableFileInfo, setMsg: (m: string) => void) {
  const [xlsxBusy, setXlsxBusy] = useState(false);
  const fileBase = last ? `table-${last.args.value}-${last.args.row}-${last.args.col}-${last.args.iso3.join('_')}` : 'table';
  const grid = () => (pivot && last ? pivotGrid(pivot, { row: `${last.args.row}`, country: 'ISO3' }) : []);
  const downloadCsv = () => {
    if (!last) return;
    const g = grid();
    save(pivotCsv(g), `${fileBase}.csv`, 'text/csv;charset=utf-8');
  };
  const downloadXlsx = async () => {
    if (!last || xlsxBusy) return;
    setXlsxBusy(true);
    try {
      save(await tableXlsx(last.args, grid(), info), `${fileBase}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    } catch (e) {
      setMsg(`Cannot write the XLSX file: ${errText(e)}`);
    } finally {
      setXlsxBusy(false);
    }
  };
  return { downloadCsv, downloadXlsx, xlsxBusy };
}

/** The panel. */
export function TablePanel({ ctx }: { ctx: PanelCtx }) {
  const { state, update, catalog, byCode, iso } = ctx;
  // Cells, rows and columns live in the URL (tv, tr, tc), so a shared link opens the same table (run=table builds it).
  const value = state.tv && byCode.has(state.tv) ? state.tv : state.v ?? 'AREA_TOTAL';
  const row = state.tr ?? 'ADM1_NAME_ALT';
  const col = state.tc ?? 'ELEV_ZONE';
  const setValue = (v: string) => update({ tv: v });
  const setRow = (v: string) => update({ tr: v });
  const setCol = (v: string) => update({ tc: v });
  // the statistic in the cells (one value per cell) and its weights, in the link (ts, wt)
  const statOpts = useMemo(() => tableStatOptions(byCode.get(value)?.type), [byCode, value]);
  const stat = state.ts && statOpts.some((o) => o.value === state.ts) ? state.ts : null;
  const weightOpts = useMemo(() => weightLayers(byCode), [byCode]);
  const [msg, setMsg] = useState<string | null>(null);
  // "Find" narrows the cells' list with the catalog's search (synonyms, ranking), best first; the chosen one stays listed
  const [find, setFind] = useState('');
  const search = useMemo(() => varSearch(catalog), [catalog]);
  const valueOpts = useMemo(() => {
    if (!find.trim()) return catalog;
    const hits = search(find).map((c) => byCode.get(c)!).filter(Boolean);
    return hits.some((h) => h.varCode === value) || !byCode.has(value) ? hits : [byCode.get(value)!, ...hits];
  }, [find, search, catalog, byCode, value]);
  const r = useRun<TableArgs, TableData>('table', fetchTable, { setQuery: ctx.setQuery });
  const isoOpts = useMemo(() => isoOptions(iso), [iso]);
  // a series in the cells: its years are a domain too
  const ser = ctx.series?.get(value);
  const domains = useMemo(() => catalog.filter((c) => !COUNTRY_CODES.includes(c.varCode) || c.varCode === 'ISO3'), [catalog]);

  const autoRun = useRef(false);
  const submit = (auto = false) => {
    if (r.running) return;
    autoRun.current = true; // a run of the user's: the link's run is done with
    setMsg(null);
    if (!byCode.has(value)) return setMsg('Choose an indicator for the cells.');
    if (!row || !col) return setMsg('Choose a domain for the rows and one for the columns.');
    if (row === col) return setMsg('Rows and columns need two different domains.');
    const yearDom = row === YEAR_DOMAIN || col === YEAR_DOMAIN;
    if (yearDom && !ser) return setMsg('Years as a domain need a series in the cells (e.g. PWT_POP).');
    const weights = stat && needsWeights(stat) && state.wt ? { weights: state.wt } : {};
    // years as a domain: the series' stem over every year it holds (one long summary by the other domain)
    const years = yearDom && ser ? { value: ser.stem, years: [...ser.years] } : {};
    const a: TableArgs = { value, iso3: state.iso.length ? [...state.iso] : ['SSA'], row, col, ...(stat ? { stat, ...weights } : {}), ...years };
    const by = yearDom ? [row === YEAR_DOMAIN ? col : row] : [row, col];
    r.run(a, { method: 'indapi', args: { var: [a.value], iso3: a.iso3, by, ...(a.years ? { year: a.years } : {}), ...(stat ? { stats: [stat], ...weights } : {}) }, label: `Table of ${a.value}${stat ? ` (${stat})` : ''} by ${row} x ${col}, ${a.iso3.join(', ')}` });
    // the link says what was built: cells, rows, columns (countries are in `iso` already) and run=table
    if (!auto) update({ run: 'table', tv: value, tr: row, tc: col });
  };
  // A shared link with run=table builds its table once the catalog is there.
  useEffect(() => {
    if (autoRun.current || state.run !== 'table' || !catalog.length || !codesKnown(ctx, [value, row, col].filter((c) => c !== YEAR_DOMAIN), state.iso)) return;
    if ((row === YEAR_DOMAIN || col === YEAR_DOMAIN) && !ctx.series?.size) return; // the link's years wait for the catalog's series
    autoRun.current = true;
    submit(true);
  }, [catalog, iso, ctx.series, state.run, JSON.stringify([value, row, col, state.iso])]);

  const last = r.last;
  const rec = last ? byCode.get(last.args.value) : undefined;
  const statCol = last?.args.stat ? `${last.args.value}_${last.args.stat}` : null;
  const dec = (statCol ? last?.data.cells.columns.find((c) => c.name === statCol)?.dec : undefined) ?? rec?.dec ?? 2;
  // one block: a domain is the country (one code), or one region's pool
  const single = useMemo(() => {
    if (!last) return undefined;
    const one = last.args.iso3.length === 1 ? iso.find((e) => e.code === last.args.iso3[0]) : undefined;
    if (COUNTRY_CODES.includes(last.args.row) || COUNTRY_CODES.includes(last.args.col) || one?.type === 'region') return one?.name ?? last.args.iso3.join(', ');
    return undefined;
  }, [last, iso]);
  const pivot = useMemo(() => (last ? tablePivot(last.args, last.data, single) : null), [last, single]);
  // percentage views (row, column, total) of an additive indicator; the downloads keep the values
  const [view, setView] = useState<'values' | PivotPercent>('values');
  const additive = !statCol && /^sum\(/.test(rec?.aggFunR ?? '');
  const pct = additive && view !== 'values' ? view : null;
  const shownPivot = useMemo(() => (pivot && pct ? pivotPercent(pivot, pct) : pivot), [pivot, pct]);
  // intervals as people read them ("1,500-6,000 m"); R's cut() label in the header's tooltip, the CSV and XLSX
  const keyLabel = useCallback((k: string, axis: 'row' | 'col') => {
    const code = last ? (axis === 'row' ? last.args.row : last.args.col) : '';
    const d = byCode.get(code);
    return d?.type === 'continuous' ? intervalText(k, prettyUnit(d.unit), requestBreaks(undefined, code, d)) : k;
  }, [last, byCode]);
  const domLabel = (c: string) => { if (c === YEAR_DOMAIN) return 'Year'; const d = byCode.get(c); return d?.type === 'continuous' ? `${d.varLabel} interval${d.unit ? ` (${prettyUnit(d.unit)})` : ''}` : colLabel(byCode, c); };
  const valueLabel = last ? (statCol && statLabel(last.data.cells.columns, statCol)) || colLabel(byCode, last.args.value) : '';
  const { downloadCsv, downloadXlsx, xlsxBusy } = useTableDownloads(last, pivot, { rec, dec, valueLabel, domLabel }, setMsg);

  const option = (c: (typeof catalog)[number], dom = true) => <option key={c.varCode} value={c.varCode}>{c.varLabel} ({c.varCode}){dom && c.type === 'continuous' ? ' · intervals' : ''}</option>;
  // a domain's choice shows its name (the code is written under the select), so it fits the panel
  const domOption = (c: (typeof catalog)[number]) => <option key={c.varCode} value={c.varCode} title={c.varCode}>{c.varLabel}{c.type === 'continuous' ? ' · intervals' : ''}</option>;
  // the series' years (kept listed when the link asks for them before the series are known)
  const yearOption = ser || row === YEAR_DOMAIN || col === YEAR_DOMAIN ? <option value={YEAR_DOMAIN}>Year{ser ? ` (${yearRangeText(ser.years)}, series)` : ''}</option> : null;
  return (
    <section aria-labelledby="table-h">
      <h2 id="table-h">Table builder</h2>
      <p className="muted small">Rows × columns by two domains, one indicator in the cells. Totals use the indicator's own formula over the cells of the row, column or selection (a mean stays a mean); with several countries, “{ALL_SELECTED}” totals are over all of them together.</p>
      <label className="field"><span>Find an indicator for the cells</span>
        <input type="search" value={find} onChange={(e) => { setFind(e.target.value); const first = e.target.value.trim() ? search(e.target.value)[0] : undefined; if (first) setValue(first); }}
          placeholder="e.g. distance town, rainfall" data-testid="table-find" />
      </label>
      <label className="field"><span>Indicator in the cells{find.trim() ? ` (${valueOpts.length} found)` : ''}</span>
        <select value={value} onChange={(e) => setValue(e.target.value)} data-testid="table-value">{valueOpts.map((c) => option(c, false))}</select>
      </label>
      <label className="field"><span>Statistic in the cells and totals</span>
        <select value={stat ?? ''} onChange={(e) => update({ ts: e.target.value || null })} data-testid="table-stat">
          <option value="">The indicator's own formula ({byCode.get(value)?.aggFunR.split('(')[0] ?? 'catalog'})</option>
          {statOpts.map((o) => <option key={o.value} value={o.value}>{o.label} ({o.value})</option>)}
        </select>
      </label>
      {stat && needsWeights(stat) && (
        <label className="field"><span>weights: the layer each cell is weighted by</span>
          <select value={state.wt ?? ''} onChange={(e) => update({ wt: e.target.value || null })} data-testid="table-weights" aria-invalid={!state.wt}>
            <option value="">none (choose one for {stat})</option>
            {weightOpts.map((w) => <option key={w.varCode} value={w.varCode}>{w.varLabel} ({w.unit.trim()}, {w.varCode})</option>)}
          </select>
        </label>
      )}
      <div className="row table-domains">
        <label className="field"><span>Rows</span>
          <select value={row} onChange={(e) => setRow(e.target.value)} data-testid="table-row">{yearOption}{domains.map((c) => domOption(c))}</select>
        </label>
        <code className="muted small dom-code">{row}</code>
        <button type="button" className="ghost small" onClick={() => update({ tr: col, tc: row })} aria-label="Swap rows and columns" title="Swap rows and columns">⇄</button>
        <label className="field"><span>Columns</span>
          <select value={col} onChange={(e) => setCol(e.target.value)} data-testid="table-col">{yearOption}{domains.map((c) => domOption(c))}</select>
        </label>
        <code className="muted small dom-code">{col}</code>
      </div>
      <ChipSelect label="Table countries or regions" options={isoOpts} values={state.iso} onChange={(v) => update({ iso: v })} placeholder="Add a country or region…" emptyText="All of Africa south of the Sahara (SSA)" />
      <RunControls run={r} label="Build table" progressLabel="Building the table" onRun={() => submit()} message={msg} error={r.error && errText(r.error)} />
      {last && pivot && (
        <ResultFrame run={r} testId="table-result">
          <div className="row">
            <button type="button" onClick={downloadCsv}>Download CSV</button>
            <button type="button" onClick={() => void downloadXlsx()} aria-disabled={xlsxBusy}>{xlsxBusy ? 'Writing XLSX…' : 'Download XLSX'}</button>
          </div>
          {additive ? (
            <fieldset className="radios row small" data-testid="table-view">
              <legend>Show</legend>
              {([['values', 'Values'], ['row', 'Row %'], ['col', 'Column %'], ['total', '% of total']] as const).map(([k, t]) => (
                <label key={k}><input type="radio" name="table-view" value={k} checked={view === k} onChange={() => setView(k)} /> {t}</label>
              ))}
            </fieldset>
          ) : <p className="muted small">Percentages are offered for indicators that add up (aggregation sum); {statCol ? `the cells hold ${last.args.stat}` : `${last.args.value} is a ${rec?.aggFunR.split('(')[0] ?? 'summary'}`}.</p>}
          <PivotTable pivot={shownPivot ?? pivot} rowLabel={domLabel(last.args.row)} colLabel={domLabel(last.args.col)} keyLabel={keyLabel}
            caption={`${valueLabel} by ${last.args.row} × ${last.args.col}, ${last.args.iso3.join(', ')}${pct ? `: ${pct === 'row' ? "% of the row's total" : pct === 'col' ? "% of the column's total" : '% of the total'}` : ''}`}
            fmt={pct ? (v) => `${fmtNum(v, 1)} %` : (v) => fmtNum(v, dec)} />
          {pivot.colKeys.includes('NA') && <p className="muted small">NA: cells without a class or outside every interval of a domain.</p>}
        </ResultFrame>
      )}
      <HistogramSection ctx={ctx} value={value} />
    </section>
  );
}
