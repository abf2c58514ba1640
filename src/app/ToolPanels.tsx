/**
 * The right side of the shell: the tool tabs (arrow keys move between them), the Widen button,
 * and the panel switcher. Summaries and Areas are in the entry (a file dropped on the map is
 * handed to the Areas upload right after switching to it); the other panels' code loads when
 * opened or after the first map. The Download and API tabs describe the query behind the
 * result on screen, else the current selection.
 */
import { useMemo, useState, type ReactNode } from 'react';
import type { Row } from '../core/types';
import type { CatchmentResult } from '../core/api';
import type { BandView } from './catchment-layer';
import type { CellInfo } from '../../workers/protocol/raster';
import { lazyRetry } from '../ui/lazy-retry';
import { Loadable } from '../ui/Loadable';
import type { PanelCtx, QuerySpec } from './panels/common';
import { SummaryPanel, summaryArgs, type SummaryRows } from './panels/SummaryPanel';
import { AreasPanel } from './panels/AreasPanel';
import type { PanelId, SourceSpec, UrlState } from './url-state';
import type { BundleData } from './useBundleData';
import type { MapViewState } from './useMapView';
import type { UrlUpdate } from './useUrlState';

const TablePanel = lazyRetry(() => import('./panels/TablePanel').then((m) => m.TablePanel));
const ComparePanel = lazyRetry(() => import('./panels/ComparePanel').then((m) => m.ComparePanel));
const DownloadPanel = lazyRetry(() => import('./panels/DownloadPanel').then((m) => m.DownloadPanel));
const ApiPanel = lazyRetry(() => import('./panels/ApiPanel').then((m) => m.ApiPanel));
const CatchmentPanel = lazyRetry(() => import('./panels/CatchmentPanel').then((m) => m.CatchmentPanel));

/** The tabs, in order, with their labels. */
export const PANELS: Array<[PanelId, string]> = [['summary', 'Summaries'], ['table', 'Table'], ['areas', 'Areas'], ['compare', 'Compare'], ['catchment', 'Catchment'], ['download', 'Download'], ['api', 'API']];

/** Props of {@link ToolPanels}. */
export interface ToolPanelsProps {
  state: UrlState;
  update: UrlUpdate;
  data: BundleData;
  view: MapViewState;
  /** The picked cell (the Compare panel ranks against it). */
  picked: CellInfo | null;
  /** Catchment sources. */
  catchSources: SourceSpec[];
  /** Results for the map. */
  onSummaryRows: (r: SummaryRows | null) => void;
  onCompare: (r: { rows: Row[]; by: number } | null) => void;
  onCatchment: (r: CatchmentResult | null) => void;
  /** A catchment's figures within each time or per band (the table, the charts and the map legend share it), and its setter. */
  bandView: BandView;
  setBandView: (v: BandView) => void;
  /** The first map has drawn: every panel's code may load. */
  afterMap: boolean;
  /** The panel is widened, and its setter. */
  wide: boolean;
  setWide: (w: boolean) => void;
}

/** Without a run query, downloads and the API panel use the current map/summary selection. */
function selectionQuery(state: UrlState, series: ToolPanelsProps['data']['series']): QuerySpec | null {
  const a = summaryArgs(state, series);
  const by = state.by.length ? ` by ${state.by.join(', ')}` : '';
  return a.var.length ? { method: 'indapi', args: { ...a }, label: `Current selection: ${a.var.join(', ')} for ${(a.iso3 ?? ['SSA']).join(', ')}${by}` } : null;
}

/** The tab bar: a tab per panel (Left/Right arrows move between them) and the Widen button. */
function TabsBar({ panel, update, wide, setWide }: { panel: PanelId; update: UrlUpdate; wide: boolean; setWide: (w: boolean) => void }) {
  const onKey = (key: string) => {
    const i = PANELS.findIndex((p) => p[0] === panel);
    const n = key === 'ArrowRight' ? (i + 1) % PANELS.length : key === 'ArrowLeft' ? (i + PANELS.length - 1) % PANELS.length : -1;
    if (n >= 0) { update({ panel: PANELS[n][0] }); document.getElementById(`tab-${PANELS[n][0]}`)?.focus(); }
  };
  return (
    <div className="tabs-bar">
      <div role="tablist" aria-label="Tools" className="tabs">
        {PANELS.map(([id, label]) => (
          <button key={id} role="tab" id={`tab-${id}`} aria-selected={panel === id} aria-controls={`panel-${id}`} tabIndex={panel === id ? 0 : -1}
            onClick={() => update({ panel: id })} onKeyDown={(e) => onKey(e.key)}>{label}</button>
        ))}
      </div>
      <button type="button" className="ghost small widen" aria-pressed={wide} onClick={() => setWide(!wide)} title={wide ? 'Give the map its room back' : 'Make the tools panel wider (tables with many columns)'} aria-label={wide ? 'Narrow panel' : 'Widen panel'}>{wide ? 'Narrow' : 'Widen'}</button>
    </div>
  );
}

/** The tools side. */
export function ToolPanels(p: ToolPanelsProps) {
  const { state, update, data, view } = p;
  const [query, setQuery] = useState<QuerySpec | null>(null);
  const stateQuery = useMemo(() => selectionQuery(state, data.series), [state, data.series]);
  const current = query ?? stateQuery;
  const ctx: PanelCtx = { catalog: data.catalog, byCode: data.byCode, iso: data.iso, state, update, setQuery, fitTo: view.fitTo, series: data.series };
  const mounted = (panel: PanelId) => p.afterMap || state.panel === panel;
  /** A panel whose code is loaded on demand: its own loading line and failure message; opening it tries a failed load again. */
  const lazyPanel = (id: PanelId, what: string, el: ReactNode) => (
    <Loadable what={what} resetKeys={[state.panel === id]} loading={<p className="muted small">Loading {what}…</p>}>{el}</Loadable>
  );
  const onSources = (s: SourceSpec[]) => update({ src: s, ...(state.pick && !state.src.length ? { pick: null } : {}) });
  return (
    <aside className="right" aria-label="Tools">
      <TabsBar panel={state.panel} update={update} wide={p.wide} setWide={p.setWide} />
      {PANELS.map(([id]) => (
        <div key={id} role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`} hidden={state.panel !== id} className="panel">
          {id === 'summary' && <SummaryPanel ctx={ctx} onRows={p.onSummaryRows} />}
          {id === 'table' && mounted(id) && lazyPanel(id, 'the table builder', <TablePanel ctx={ctx} />)}
          {id === 'areas' && <AreasPanel ctx={ctx} drawMode={view.drawMode} setDrawMode={view.setDrawMode} />}
          {id === 'compare' && mounted(id) && lazyPanel(id, 'the comparison tools', <ComparePanel ctx={ctx} picked={p.picked} onResult={p.onCompare} />)}
          {id === 'catchment' && state.panel === 'catchment' && lazyPanel(id, 'the catchment tool', <CatchmentPanel ctx={ctx} sources={p.catchSources} onSources={onSources} onResult={p.onCatchment} bandView={p.bandView} setBandView={p.setBandView} />)}
          {id === 'download' && mounted(id) && lazyPanel(id, 'the download panel', <DownloadPanel query={current} />)}
          {id === 'api' && mounted(id) && lazyPanel(id, 'the API panel', <ApiPanel query={current} />)}
        </div>
      ))}
    </aside>
  );
}
