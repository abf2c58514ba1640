/**
 * Panel results drawn on the map: summaries by ADM1/ADM2 as a choropleth, similarity ranks
 * (units as a choropleth, cells as a raster) and catchment bands (a raster with the sources'
 * labels). A result that leaves its panel (null: the run failed) leaves the map too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Row } from '../core/types';
import type { CatchmentResult } from '../core/api';
import type { MapLabel } from '../ui/MapView';
import { catchmentExportInfo, catchmentLayer, catchmentLayerKey, sliceCellsStyle, SOURCE_HUES, similarCellsLayer, similarUnitsChoropleth, summaryChoropleth, type Choro } from './result-layers';
import { getRaster } from './services';
import { domainKey } from '../core/map/domain-mask';
import type { SummaryRows } from './panels/SummaryPanel';
import type { BundleData } from './useBundleData';
import type { MapLayer } from './useMapLayer';
import type { UrlState } from './url-state';
import type { CellsExportInfo } from './map-export';
import type { BandView } from './catchment-layer';

/** The results on the map and the panels' callbacks that put them there. */
export interface ResultLayers {
  /** The choropleth on the map, or null. */
  choro: Choro | null;
  /** Sets or (null) hides the choropleth. */
  setChoro: (c: Choro | null) => void;
  /** True while the raster drawn is a one-interval map's cells (drawn over the choropleth). */
  sliceCellsDrawn: boolean;
  /** Similar cells being drawn: 'styling' in the raster worker, then their style key until the map has drawn it; null: none. */
  cellsPending: string | null;
  /** Labels of the catchment's sources, or null. */
  catchLabels: MapLabel[] | null;
  /** What a map export says of the result drawn as cells (catchment, similar cells), with its layer key; null: none drawn yet. */
  cellsInfo: { key: string; info: CellsExportInfo } | null;
  /** Summaries' rows (by ADM1/ADM2 or a unit code): their choropleth. */
  onSummaryRows: (r: SummaryRows | null) => void;
  /** Similarity ranks: by units (`by` != 0) a choropleth, by cells a raster layer. */
  onCompare: (r: { rows: Row[]; by: number } | null) => void;
  /** Catchment bands: a raster layer of band index per cell, the sources' labels; a new set of sources fits the map to it. */
  onCatchment: (r: CatchmentResult | null) => void;
  /** A catchment's figures within each time or per band: the table's, the charts' and the map legend's (one state). */
  bandView: BandView;
  /** Sets {@link ResultLayers.bandView}; the legend of the catchment on the map is relabelled (same colours). */
  setBandView: (v: BandView) => void;
  /** True while the map draws a catchment with disjoint bands (the legend then offers the switch). */
  bandSwitch: boolean;
  /** The map drew a frame: similar cells waiting to be drawn are done once their layer is the drawn one. */
  onRendered: () => void;
}

/**
 * The result layers. A choropleth of an earlier summary goes when the countries, indicators or
 * domains change.
 * @param fitTo zooms the map to bounds [w, s, e, n], degrees
 */
export function useResultLayers(state: UrlState, data: BundleData, layer: MapLayer, fitTo: (b: [number, number, number, number]) => void): ResultLayers {
  const { grid, iso, byCode } = data;
  const [choro, setChoro] = useState<Choro | null>(null);
  const [cellsPending, setCellsPending] = useState<string | null>(null);
  const [catchLabels, setCatchLabels] = useState<MapLabel[] | null>(null);
  const [cellsInfo, setCellsInfo] = useState<{ key: string; info: CellsExportInfo } | null>(null);
  const [bandView, setBandView] = useState<BandView>('within');
  const bandViewRef = useRef(bandView);
  bandViewRef.current = bandView;
  /** The catchment drawn: its result and style key (the legend is relabelled when the view changes). */
  const [catchDrawn, setCatchDrawn] = useState<{ r: CatchmentResult; key: string } | null>(null);
  /** The style key of the catchment last put on the map (null once its result left the panel), read by a run again. */
  const catchKeyRef = useRef<string | null>(null);
  const choroKey = JSON.stringify([state.vars, state.noVars, state.iso, state.by]);
  const firstChoroKey = useRef(choroKey);
  useEffect(() => { if (choroKey !== firstChoroKey.current) { firstChoroKey.current = choroKey; setChoro(null); } }, [choroKey]);
  const rasterKeyRef = useRef(layer.rasterKey);
  rasterKeyRef.current = layer.rasterKey;
  const { showCells, restyle } = layer;
  // a result that left its panel takes its cells off the map: the mapped indicator comes back
  const dropCells = useCallback((kind: string) => { if (rasterKeyRef.current?.startsWith(`cells:${kind}`)) restyle(); }, [restyle]);

  const onSummaryRows = useCallback((r: SummaryRows | null) => {
    void summaryChoropleth(r, iso, byCode).then(setChoro, () => setChoro(null));
  }, [byCode, iso]);
  const onCompare = useCallback((r: { rows: Row[]; by: number } | null) => {
    if (!r) { setChoro(null); dropCells('similar'); return; }
    const score = r.rows.length && Object.keys(r.rows[0]).find((k) => /score/i.test(k));
    if (!score) return;
    if (r.by !== 0) { void similarUnitsChoropleth(r.rows, score).then((c) => { if (c) setChoro(c); }); return; }
    setChoro(null); // the cell ranks are a raster layer: an ADM1 choropleth would hide them
    const { values, palette } = similarCellsLayer(r.rows, score, grid);
    const key = `cells:similar:${Date.now()}`;
    setCellsInfo({ key, info: { title: 'Similar places', subtitle: `cells ranked by ${score}`, heading: 'Similarity rank', attribution: [], fileStem: 'similar' } });
    setCellsPending('styling');
    void getRaster().styleCells(key, grid, values, palette).then(() => { showCells(key, palette); setCellsPending(key); }).catch(() => setCellsPending(null));
  }, [grid, showCells, dropCells]);
  // A new set of sources (or bands) fits the map to the result's window, so a shared link opens on the bands.
  const fittedCatch = useRef('');
  const onCatchment = useCallback((r: CatchmentResult | null) => {
    if (!r) { catchKeyRef.current = null; setCatchLabels(null); setCatchDrawn(null); dropCells('catchment'); return; }
    const key = catchmentLayerKey(r);
    setCellsInfo({ key, info: catchmentExportInfo(r) });
    // a run again with unchanged sources and bands: its layer is the one on the map, kept (nothing rasterised or drawn again)
    if (key === catchKeyRef.current && key === rasterKeyRef.current) { performance.mark('catchment:kept'); setChoro(null); setCatchDrawn({ r, key }); return; }
    const { values, palette } = catchmentLayer(r, grid, bandViewRef.current);
    performance.mark('catchment:layer');
    setCatchLabels(r.sources.slice(0, 200).map((s, i) => ({ lon: s.lon, lat: s.lat, text: s.name, color: r.sources.length > 1 ? SOURCE_HUES[i % SOURCE_HUES.length] : undefined })));
    const fitKey = JSON.stringify([r.sources.map((s) => [s.lon, s.lat]), r.breaks]);
    if (fitKey !== fittedCatch.current) {
      fittedCatch.current = fitKey;
      fitTo([r.grid.xmin, r.grid.ymin, r.grid.xmax, r.grid.ymax]);
    }
    void getRaster().styleCells(key, grid, values, palette).then(() => { performance.mark('catchment:styled'); setChoro(null); showCells(key, palette); catchKeyRef.current = key; setCatchDrawn({ r, key }); });
  }, [grid, showCells, dropCells, fitTo]);
  // a map of one interval: its cells in the summary's units, in one colour, every other cell transparent
  const sliceKey = choro?.sliceCells ? `cells:slice:${choro.sliceCells.code}:${choro.sliceCells.lo}:${choro.sliceCells.hi}:${domainKey(choro.sliceCells.domain)}` : null;
  useEffect(() => {
    const sc = choro?.sliceCells;
    const rec = sc && byCode.get(sc.code);
    if (!sc || !rec || !sliceKey) { dropCells('slice'); return; }
    let cancel = false;
    const st = sliceCellsStyle(sc, sc.label);
    getRaster().styleCog(sliceKey, rec, st.breaks, st.colors, sc.domain).then(() => { if (!cancel) showCells(sliceKey, st.palette); }, () => { /* the units stay; no cells drawn */ });
    return () => { cancel = true; };
  }, [sliceKey]);
  // the switch relabels the legend of the catchment on the map (the colours, and so the worker's style, stay)
  const drawnKey = layer.rasterKey;
  useEffect(() => {
    if (catchDrawn && catchDrawn.key === drawnKey) showCells(catchDrawn.key, catchmentLayer(catchDrawn.r, grid, bandView).palette);
  }, [bandView]);
  const bandSwitch = !!catchDrawn && catchDrawn.key === drawnKey && !catchDrawn.r.cumulative;
  const onRendered = useCallback(() => setCellsPending((k) => (k && k === drawnKey ? null : k)), [drawnKey]);
  return { choro, setChoro, sliceCellsDrawn: !!sliceKey && sliceKey === drawnKey, cellsPending, catchLabels, cellsInfo, onSummaryRows, onCompare, onCatchment, bandView, setBandView, bandSwitch, onRendered };
}
