/**
 * The application shell: header, catalog drawer on the left, the map in the centre and the
 * tool panels on the right. State that can be shared lives in the URL (`useUrlState`, the pure
 * reducer of `url-reducer.ts`); what the map draws, the pointer, the view and the panels'
 * results each have their own hook, the three sides their own component.
 */
import { useState } from 'react';
import { AppHeader } from './AppHeader';
import { CatalogDrawer } from './CatalogDrawer';
import { MapPane } from './MapPane';
import { ToolPanels } from './ToolPanels';
import { UpdateBanner } from './UpdateBanner';
import { useBundleData, useFirstLayer } from './useBundleData';
import { useLinkCodes } from './useLinkCodes';
import { useMapLayer } from './useMapLayer';
import { useMapPointer } from './useMapPointer';
import { useMapView } from './useMapView';
import { PHONE_QUERY, useAfterFirstMap, useMediaQuery } from './useMediaQuery';
import { useResultLayers } from './useResultLayers';
import { useUrlState } from './useUrlState';
import { useSeriesMap } from './useSeriesMap';

/** The app. */
export function App() {
  const [state, update] = useUrlState();
  const data = useBundleData();
  // Unknown codes in a pasted link: dropped, with a message in place.
  const badMsg = useLinkCodes(state, update, data.catalog, data.iso, data.byCode);
  useFirstLayer(state, update, data);
  const rec = state.v ? data.byCode.get(state.v) : undefined;
  const view = useMapView(state, update, data.iso);
  const series = useSeriesMap(rec, data.series, state, update);
  const layer = useMapLayer(rec, update, series.gridChange);
  const results = useResultLayers(state, data, layer, view.fitTo);
  const pointer = useMapPointer(state, update, layer.change?.code);
  const afterMap = useAfterFirstMap();
  const phone = useMediaQuery(PHONE_QUERY);
  const [drawer, setDrawer] = useState(false);
  const [wide, setWide] = useState(false);
  const onSelect = (code: string) => { update({ v: code }); results.setChoro(null); setDrawer(false); };

  return (
    <div className={`app${wide ? ' wide' : ''}${drawer ? ' drawer-open' : ''}`}>
      <a href="#tab-summary" className="skip-link" onClick={(e) => { e.preventDefault(); document.getElementById(`tab-${state.panel}`)?.focus(); }}>Skip to tools</a>
      <AppHeader drawer={drawer} setDrawer={setDrawer} />
      <UpdateBanner />
      {badMsg.text && <p className="msg warn banner" role="alert">{badMsg.text} <button type="button" className="ghost" onClick={badMsg.dismiss}>Dismiss</button></p>}
      <CatalogDrawer data={data} selected={state.v} rec={rec} onSelect={onSelect} phone={phone} drawer={drawer} setDrawer={setDrawer} />
      <MapPane state={state} update={update} data={data} rec={rec} layer={layer} series={series} results={results} pointer={pointer} view={view} phone={phone} afterMap={afterMap} />
      <ToolPanels state={state} update={update} data={data} view={view} picked={pointer.picked} catchSources={pointer.catchSources}
        onSummaryRows={results.onSummaryRows} onCompare={results.onCompare} onCatchment={results.onCatchment} bandView={results.bandView} setBandView={results.setBandView} afterMap={afterMap} wide={wide} setWide={setWide} />
    </div>
  );
}
