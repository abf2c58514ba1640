/**
 * The pointer on the map: the hover read-out, the picked place (in the link as `pick=`), and
 * in the Catchment panel a click (or Enter on the map: its centre) that adds a source where it
 * was made. Look-ups run in the raster worker; the latest hover wins.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CellInfo } from '../../workers/protocol/raster';
import { getRaster } from './services';
import { addSources, type SourceSpec, type UrlState } from './url-state';
import type { UrlUpdate } from './useUrlState';

/** The pointer's state and handlers. */
export interface MapPointer {
  /** The cell under the pointer, or null. */
  hover: CellInfo | null;
  /** The picked cell, or null. */
  picked: CellInfo | null;
  /** Clears the picked place (and `pick=`). */
  clearPicked: () => void;
  /** Pointer moved to [lon, lat] degrees (null: left the map). */
  onHover: (ll: [number, number] | null) => void;
  /** Click (or Enter) at [lon, lat] degrees. */
  onClick: (ll: [number, number]) => void;
  /** Catchment sources: the link's `src=`, else the picked place of an older link (issue 24). */
  catchSources: SourceSpec[];
  /** Adds a catchment source (a point already in the list is left out). */
  addCatchSource: (s: SourceSpec) => void;
}

/**
 * Hover, pick and catchment sources of the map.
 * @param valueCode the layer whose value the read-out shows (a gridded series' change layer); default the selected record `v`
 */
export function useMapPointer(state: UrlState, update: UrlUpdate, valueCode?: string | null): MapPointer {
  const code = valueCode ?? state.v;
  const [hover, setHover] = useState<CellInfo | null>(null);
  const [picked, setPicked] = useState<CellInfo | null>(null);
  const hoverSeq = useRef(0);
  const onHover = useCallback((ll: [number, number] | null) => {
    const seq = ++hoverSeq.current;
    if (!ll) { setHover(null); return; }
    void getRaster().cellInfo(code, ll[0], ll[1]).then((i) => { if (seq === hoverSeq.current) setHover(i); });
  }, [code]);
  const catchSources: SourceSpec[] = useMemo(() => (state.src.length ? state.src : state.pick ? [{ lon: state.pick[0], lat: state.pick[1], name: 'Picked place' }] : []), [state.src, state.pick]);
  const addCatchSource = useCallback((s: SourceSpec) => {
    const a = addSources(catchSources, [s]);
    if (a.list.length !== catchSources.length) update({ src: a.list });
  }, [catchSources, update]);
  const onClick = useCallback((ll: [number, number]) => {
    void getRaster().cellInfo(code, ll[0], ll[1]).then((i) => {
      setPicked(i);
      if (!i) return;
      if (state.panel === 'catchment') addCatchSource({ lon: +ll[0].toFixed(5), lat: +ll[1].toFixed(5), name: `${i.adm1 ?? 'Point'} ${ll[0].toFixed(2)}, ${ll[1].toFixed(2)}` });
      else update({ pick: [i.lon, i.lat] });
    });
  }, [code, state.panel, update, addCatchSource]);
  // The picked place of a link (or of Back/Forward): look it up; none: clear.
  const pickKey = state.pick?.join(',') ?? '';
  useEffect(() => {
    const pk = state.pick;
    if (!pk) { setPicked(null); return; }
    if (picked && Math.abs(picked.lon - pk[0]) < 1 / 24 && Math.abs(picked.lat - pk[1]) < 1 / 24) return;
    let cancel = false;
    void getRaster().cellInfo(code, pk[0], pk[1]).then((i) => { if (!cancel) setPicked(i); });
    return () => { cancel = true; };
  }, [pickKey]);
  const clearPicked = useCallback(() => { setPicked(null); update({ pick: null }); }, [update]);
  return { hover, picked, clearPicked, onHover, onClick, catchSources, addCatchSource };
}
