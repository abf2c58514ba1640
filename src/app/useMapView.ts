/**
 * The map's view and drawing: where the map fits (the chosen countries, a panel's bounds), the
 * view kept in the link (`map=`), and the shapes drawn on it (`wkt=`).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Feature, FeatureCollection } from 'geojson';
import type { IsoEntry } from '../core/types';
import type { DrawMode } from '../ui/MapView';
import { appendWkt, wktToFeatures } from '../ui/wkt';
import type { UrlState } from './url-state';
import type { UrlUpdate } from './useUrlState';

/** Bounds [w, s, e, n], degrees. */
export type Bounds = [number, number, number, number];

/** The view's state and handlers. */
export interface MapViewState {
  /** Bounds the map fits to next (a new array each time, so the same bounds fit again), or null. */
  fit: Bounds | null;
  /** Zooms the map to bounds. */
  fitTo: (b: Bounds) => void;
  /** The map moved: its view goes into the link (replacing the history entry: moving the map is not a step). */
  onView: (v: [number, number, number]) => void;
  /** What a click draws. */
  drawMode: DrawMode;
  /** Sets what a click draws. */
  setDrawMode: (m: DrawMode) => void;
  /** The link's shapes as features (null: none, or WKT that does not parse). */
  areas: FeatureCollection | null;
  /** A shape was drawn: appended to `wkt=`; a polygon ends the drawing. */
  onDrawn: (f: Feature) => void;
}

/** Fits the map to the chosen countries (not over the view of a link); keeps the view and the drawn shapes in the link. */
export function useMapView(state: UrlState, update: UrlUpdate, iso: IsoEntry[]): MapViewState {
  const [fit, setFit] = useState<Bounds | null>(null);
  const [drawMode, setDrawMode] = useState<DrawMode>('off');
  const fitTo = useCallback((b: Bounds) => setFit([...b]), []);
  const skipFit = useRef(!!state.map);
  useEffect(() => {
    if (!iso.length) return;
    if (skipFit.current) { skipFit.current = false; return; }
    if (!state.iso.length) return;
    const es = iso.filter((e) => state.iso.includes(e.code));
    if (!es.length) return;
    setFit([Math.min(...es.map((e) => e.bboxDeg[0])), Math.min(...es.map((e) => e.bboxDeg[1])), Math.max(...es.map((e) => e.bboxDeg[2])), Math.max(...es.map((e) => e.bboxDeg[3]))]);
  }, [iso, state.iso.join(',')]);
  const onView = useCallback((v: [number, number, number]) => update({ map: v }, { replace: true }), [update]);
  const onDrawn = useCallback((f: Feature) => {
    update({ wkt: appendWkt(state.wkt, f.geometry) });
    if (f.geometry.type !== 'Point') setDrawMode('off');
  }, [state.wkt, update]);
  const areas: FeatureCollection | null = useMemo(() => {
    if (!state.wkt) return null;
    try { return wktToFeatures(state.wkt); } catch { return null; }
  }, [state.wkt]);
  return { fit, fitTo, onView, drawMode, setDrawMode, areas, onDrawn };
}
