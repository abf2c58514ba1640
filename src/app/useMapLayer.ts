/**
 * What the map draws: the selected layer styled in the raster worker (none for a national
 * series, drawn on the countries by ./useSeriesMap.ts; the change between two years of a
 * gridded series when one is asked, `chg=`/`yfrom=`; a switch that fails
 * leaves the old layer on the map, with its own legend, and says why), or a per-cell result
 * (similar cells, catchment bands) in its place until the user goes back to the layer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { VarRecord } from '../core/types';
import type { Palette } from '../core/map/palette';
import { isNationalRecord } from '../ui/series-info';
import { getRaster } from './services';
import { errText } from './panels/common';
import type { UrlUpdate } from './useUrlState';
import type { GridChange } from './useSeriesMap';
import { changeHeading, changeLayerCode, changeRecord } from '../core/map/change';

/** A gridded series' change as drawn: the legend's title and unit, the record the hover formats values with, the code hover reads. */
export interface DrawnChange {
  /** Legend title, e.g. "Change (%) of NDVI, 2000–2010". */
  title: string;
  /** Unit of the values: "% change" or the layer's unit. */
  unit: string;
  /** The series' record with the change's title, unit, decimals and years (hover read-out, map export: src/core/map/change.ts `changeRecord`). */
  rec: VarRecord;
  /** Heading of the exported legend, e.g. "Change 2000–2010". */
  heading: string;
  /** The worker's layer code of the change (src/core/map/change.ts `changeLayerCode`): hover reads its values. */
  code: string;
}

/** The raster layer on the map and its controls. */
export interface MapLayer {
  /** Style key the map draws: `cog:<code>` for a layer, `cells:<kind>:<n>` for a per-cell result; null: none. */
  rasterKey: string | null;
  /** Palette of what is drawn (the legend's). */
  palette: Palette | null;
  /** The record whose layer the map draws (the legend's title and unit go with it). */
  drawnRec: VarRecord | null;
  /** The change map drawn (a gridded series between two years), or null. */
  change: DrawnChange | null;
  /** Why the selected layer could not be shown, or null. */
  mapErr: string | null;
  /** Shows a per-cell result, styled in the raster worker under `key`, in place of the layer. */
  showCells: (key: string, palette: Palette) => void;
  /** Styles the selected layer again (back from a per-cell result). */
  restyle: () => void;
}

/**
 * Styles the selected record `rec` in the raster worker. After a failed switch the selection
 * goes back to the layer on the map (`update({ v })`, so the card, the catalog and the legend's
 * "Back to" name it): that step restyles nothing and keeps the message.
 */
export function useMapLayer(rec: VarRecord | undefined, update: UrlUpdate, gridChange: GridChange | null = null): MapLayer {
  const [rasterKey, setRasterKey] = useState<string | null>(null);
  const [palette, setPalette] = useState<Palette | null>(null);
  const [drawnRec, setDrawnRec] = useState<VarRecord | null>(null);
  const [mapErr, setMapErr] = useState<string | null>(null);
  const [change, setChange] = useState<DrawnChange | null>(null);
  const changeKey = gridChange ? changeLayerCode(gridChange.mode, gridChange.codeFrom, gridChange.codeTo) : null;
  const [restyleN, setRestyleN] = useState(0);
  const revertedTo = useRef<string | null>(null);
  const drawnRecRef = useRef<VarRecord | null>(null);
  drawnRecRef.current = drawnRec;
  useEffect(() => {
    // a national series has no COG: it is drawn as a choropleth on the countries (./useSeriesMap.ts)
    if (!rec || isNationalRecord(rec)) { setRasterKey(null); setPalette(null); setDrawnRec(null); setMapErr(null); setChange(null); return; }
    if (revertedTo.current === rec.varCode) { revertedTo.current = null; return; }
    revertedTo.current = null;
    let cancel = false;
    setMapErr(null);
    const key = `cog:${changeKey ?? rec.varCode}`;
    const drawn = gridChange && changeKey ? drawnChange(rec, gridChange, changeKey) : null;
    const styled = gridChange ? getRaster().styleCogChange(key, rec, gridChange.codeFrom, gridChange.codeTo, gridChange.mode) : getRaster().styleCog(key, rec);
    styled.then((p) => { if (!cancel) { setPalette(p); setRasterKey(key); setDrawnRec(rec); setChange(drawn); } })
      .catch((e) => {
        if (cancel) return;
        const still = drawnRecRef.current;
        const back = still && still.varCode !== rec.varCode;
        setMapErr(`Cannot show ${rec.varLabel} (${rec.varCode}): ${errText(e).replace(/([^.])$/, '$1.')}${back ? ` The map still shows ${still.varLabel}.` : ''}`);
        if (back) { revertedTo.current = still.varCode; update({ v: still.varCode }, { replace: true }); }
      });
    return () => { cancel = true; };
  }, [rec, restyleN, changeKey]);
  const showCells = useCallback((key: string, pal: Palette) => { setRasterKey(key); setPalette(pal); }, []);
  const restyle = useCallback(() => setRestyleN((n) => n + 1), []);
  return { rasterKey, palette, drawnRec, change, mapErr, showCells, restyle };
}

/** The legend, hover and export words of a gridded series' change map (src/core/map/change.ts owns them). */
function drawnChange(rec: VarRecord, c: GridChange, code: string): DrawnChange {
  const r = changeRecord(rec, c.mode, c.from, c.to);
  return { title: r.varLabel, unit: r.unit, rec: r, heading: changeHeading(c.from, c.to), code };
}
