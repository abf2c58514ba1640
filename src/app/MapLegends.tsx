/**
 * The map's lower-left overlay: why a layer could not be shown, the similar cells' progress,
 * a series' year control (under the layer legend; a national series' own legend box),
 * the raster layer's legend (with opacity and "Back to" after a per-cell result) and the
 * choropleth's legend.
 */
import type { VarRecord } from '../core/types';
import { Legend } from '../ui/Legend';
import { UploadLegend } from './UploadLayer';
import { Progress } from '../ui/Progress';
import type { MapLayer } from './useMapLayer';
import type { SeriesMap } from './useSeriesMap';
import { lazyRetry } from '../ui/lazy-retry';
import { Loadable } from '../ui/Loadable';

const YearControl = lazyRetry(() => import('../ui/YearControl').then((m) => m.YearControl));
import type { ResultLayers } from './useResultLayers';
import { BandViewSwitch } from './BandViewSwitch';

/** Props of {@link MapLegends}. */
export interface MapLegendsProps {
  /** The selected record. */
  rec: VarRecord | undefined;
  /** The raster layer on the map. */
  layer: MapLayer;
  /** The mapped series (its year control under the legend; a national series' legend). */
  series: SeriesMap;
  /** The results on the map. */
  results: ResultLayers;
  /** Prefix of the layer legend's title in a layer comparison ("Left: "), else "". */
  sidePrefix: string;
  /** Phone layout: legends start collapsed. */
  phone: boolean;
  /** Raster opacity 0..1 and its setter. */
  opacity: number;
  onOpacity: (op: number) => void;
}

/** Legend title of the raster layer: the per-cell result's kind, else the drawn record's label. */
function layerTitle(rasterKey: string | null, drawn: VarRecord): string {
  if (rasterKey?.startsWith('cells:catchment')) return 'Travel time (catchment)';
  if (rasterKey?.startsWith('cells:slice')) return "One interval's cells";
  return rasterKey?.startsWith('cells:') ? 'Similarity' : drawn.varLabel;
}

/** The overlay. */
export function MapLegends({ rec, layer, series, results, sidePrefix, phone, opacity, onOpacity }: MapLegendsProps) {
  const { rasterKey, drawnRec, palette, mapErr } = layer;
  const { cellsPending } = results;
  const choro = series.choro ? null : results.choro; // a national series' choropleth has its own legend
  const cells = !!rasterKey?.startsWith('cells:');
  const years = series.info && series.year !== null && series.years.length ? (
    <Loadable what="the year control" compact loading={null}>
      <YearControl years={series.years} year={series.year} onYear={series.setYear} collapsed={phone} change={{ change: series.change, from: series.from, onChange: series.setChange }}
        national={series.info.kind === 'national' && rec ? { choro: series.choro, source: [rec.sourceMini || rec.sources, rec.license].filter(Boolean).join(', ') } : undefined} />
    </Loadable>
  ) : null;
  return (
    <div className="overlay bl">
      {mapErr && <p className="msg error" role="alert" data-testid="map-error">{mapErr}</p>}
      {series.error && <p className="msg error" role="alert">{series.error}</p>}
      {series.info?.kind === 'national' && years}
      <UploadLegend phone={phone} />
      {cellsPending && <div data-testid="cells-progress"><Progress label="Drawing the similar cells" /></div>}
      {rec && drawnRec && <Legend key={phone ? 'phone' : 'wide'} collapsed={!!choro || phone} title={`${sidePrefix}${!cells && layer.change ? layer.change.title : layerTitle(rasterKey, drawnRec)}`} unit={cells ? '' : layer.change?.unit ?? drawnRec.unit} noDataLabel={rasterKey?.startsWith('cells:catchment') ? 'Beyond the last band, or unreachable' : undefined} palette={palette} opacity={opacity} onOpacity={onOpacity}>
        {results.bandSwitch && <BandViewSwitch view={results.bandView} onView={results.setBandView} name="catch-view-map" label="Map legend: figures shown" testId="legend-band-view" />}
        {results.bandSwitch && results.bandView === 'within' && <p className="muted small">Within a time: its shade and the darker ones.</p>}
        {cells && <button type="button" className="ghost small" onClick={layer.restyle}>Back to {rec.varCode}</button>}
      </Legend>}
      {!cells && series.info?.kind === 'gridded' && years && <div className="legend year-box">{years}</div>}
      {choro && (
        <details className="legend" open={!phone} aria-label="Choropleth legend">
          <summary><h3 title={choro.code}>{choro.title}</h3><code className="legend-code">{choro.code}</code></summary>
          <ul role="list">{choro.legend.map((e, i) => <li key={i}><span className="sw" style={{ background: e.color }} aria-hidden="true" />{e.label}</li>)}</ul>
          <button type="button" className="ghost small" onClick={() => results.setChoro(null)}>Hide choropleth</button>
        </details>
      )}
    </div>
  );
}
