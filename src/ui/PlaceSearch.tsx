/**
 * Place-name search over the bundle's GeoNames places (`basemap/places.csv`: places of
 * 20,000+ people in the 49 countries) that flies the map there, and place labels on the map.
 *
 * Labels are HTML markers (maplibregl.Marker), not a symbol layer: the map is offline and
 * the bundle has no glyph PBFs, which MapLibre needs to draw text. The most populous places
 * in view are labelled, greedily, skipping any whose label box would overlap one already
 * placed (at most {@link MAX_LABELS}).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCombobox } from 'downshift';
import * as maplibregl from 'maplibre-gl';
import type { Map as MlMap } from 'maplibre-gl';
import Papa from 'papaparse';
import { fold } from './ChipSelect';
import { afterFirstMap } from './first-map';

/** A place of the bundle: name, ISO 3166-1 alpha-3 country, population (people), lon/lat (EPSG:4326 degrees). */
export interface Place { name: string; iso3: string; population: number; lon: number; lat: number }

/** Most labels drawn at once. */
export const MAX_LABELS = 30;

let placesP: Promise<Place[]> | null = null;
/**
 * Loads `basemap/places.csv` once (sorted by population, largest first), after the first map
 * has been drawn (place names are not needed for it; see first-map.ts).
 * @throws Error when it cannot be read
 */
export function loadPlaces(dataBase: string): Promise<Place[]> {
  placesP ??= afterFirstMap().then(() => fetch(new URL('basemap/places.csv', dataBase))).then(async (r) => {
    if (!r.ok) throw new Error(`places.csv: HTTP ${r.status}`);
    const rows = Papa.parse<Record<string, string>>((await r.text()).trim(), { header: true, skipEmptyLines: true }).data;
    return rows.map((x) => ({ name: x.name, iso3: x.iso3, population: Number(x.population), lon: Number(x.lon), lat: Number(x.lat) }))
      .filter((p) => p.name && Number.isFinite(p.lon) && Number.isFinite(p.lat));
  });
  placesP.catch(() => { placesP = null; });
  return placesP;
}

/** Places matching a query: names starting with it first, then containing it; accents and case folded; by population. */
export function matchPlaces(places: Place[], query: string, n = 8): Place[] {
  const q = fold(query.trim());
  if (!q) return [];
  const starts: Place[] = [], has: Place[] = [];
  for (const p of places) {
    const f = fold(p.name);
    if (f.startsWith(q)) starts.push(p);
    else if (f.includes(q)) has.push(p);
    if (starts.length >= n) break;
  }
  return [...starts, ...has].slice(0, n);
}

/**
 * Picks the places to label: the most populous in the map's view whose label boxes (text
 * width estimated at 6.5 px per character, 16 px high, around the projected point) do not
 * overlap. `project` maps lon/lat to screen pixels.
 */
export function pickLabels(places: Place[], bounds: [number, number, number, number], project: (lon: number, lat: number) => { x: number; y: number }, max = MAX_LABELS): Place[] {
  const [w, s, e, n] = bounds;
  const boxes: Array<[number, number, number, number]> = [];
  const out: Place[] = [];
  for (const p of places) {
    if (p.lon < w || p.lon > e || p.lat < s || p.lat > n) continue;
    const q = project(p.lon, p.lat);
    const b: [number, number, number, number] = [q.x - 4, q.y - 9, q.x + 10 + p.name.length * 6.5, q.y + 9];
    if (boxes.some((o) => b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3])) continue;
    boxes.push(b);
    out.push(p);
    if (out.length >= max) break;
  }
  return out;
}

/** Keeps place labels on a map (HTML markers) for the view, updated after each move. */
export function usePlaceLabels(map: MlMap | null, places: Place[] | null, max = MAX_LABELS): void {
  useEffect(() => {
    if (!map || !places) return;
    let markers: maplibregl.Marker[] = [];
    const draw = () => {
      for (const m of markers) m.remove();
      const b = map.getBounds();
      const pick = pickLabels(places, [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], (lon, lat) => map.project([lon, lat]), max);
      markers = pick.map((p) => {
        const el = document.createElement('div');
        el.className = 'place-label';
        el.setAttribute('aria-hidden', 'true'); // the names are in the search; labels are visual
        el.dataset.name = p.name;
        el.innerHTML = '<span class="dot"></span><span class="txt"></span>';
        el.querySelector('.txt')!.textContent = p.name;
        return new maplibregl.Marker({ element: el, anchor: 'left', offset: [-3, 0] }).setLngLat([p.lon, p.lat]).addTo(map);
      });
    };
    draw();
    document.body.dataset.placeLabels = '1'; // the first labels are placed (e2e/app-helpers.ts settle() waits for it)
    map.on('moveend', draw);
    return () => { map.off('moveend', draw); for (const m of markers) m.remove(); };
  }, [map, places, max]);
}

const fmtPop = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : `${Math.round(n / 1000)}k`);

/** Props of {@link PlaceSearch}. */
export interface PlaceSearchProps {
  /** The map (null until it exists). */
  map: MlMap | null;
  /** Bundle root URL ending in "/". */
  dataBase: string;
  /** Label places on the map (default true). */
  labels?: boolean;
  /** Most labels at once. */
  maxLabels?: number;
  /** Called with the chosen place (after the map flies there), e.g. to use it as a catchment's source. */
  onPlace?: (p: Place) => void;
}

/** The search box (combobox: type, arrows, Enter flies to the highlighted or first match) and the map labels. */
export function PlaceSearch({ map, dataBase, labels = true, maxLabels = MAX_LABELS, onPlace }: PlaceSearchProps) {
  const [places, setPlaces] = useState<Place[] | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [flown, setFlown] = useState<string>('');
  useEffect(() => {
    loadPlaces(dataBase).then(setPlaces, (e: Error) => {
      setErr(`Places cannot be loaded: ${e.message}`);
      document.body.dataset.placeLabels = '0'; // none will be placed
    });
  }, [dataBase]);
  usePlaceLabels(labels ? map : null, places, maxLabels);
  const items = useMemo(() => (places ? matchPlaces(places, text) : []), [places, text]);
  const input = useRef<HTMLInputElement | null>(null);
  const fly = (p: Place) => {
    map?.flyTo({ center: [p.lon, p.lat], zoom: Math.max(map.getZoom(), p.population >= 1e6 ? 8 : 9), duration: 800 });
    setFlown(`Map moved to ${p.name} (${p.iso3}).`);
  };
  const cb = useCombobox<Place>({
    items,
    inputValue: text,
    selectedItem: null,
    defaultHighlightedIndex: 0,
    itemToString: (p) => p?.name ?? '',
    onInputValueChange: ({ inputValue, type }) => { if (type === useCombobox.stateChangeTypes.InputChange) setText(inputValue ?? ''); },
    stateReducer: (state, { type, changes }) => {
      if (type === useCombobox.stateChangeTypes.InputBlur) return { ...changes, selectedItem: state.selectedItem, inputValue: text };
      if (type === useCombobox.stateChangeTypes.InputKeyDownEnter || type === useCombobox.stateChangeTypes.ItemClick) return { ...changes, isOpen: false, inputValue: changes.selectedItem?.name ?? text };
      return changes;
    },
    onStateChange: ({ type, selectedItem }) => {
      if ((type === useCombobox.stateChangeTypes.InputKeyDownEnter || type === useCombobox.stateChangeTypes.ItemClick) && selectedItem) {
        setText(selectedItem.name);
        fly(selectedItem);
        onPlace?.(selectedItem);
      }
    },
  });
  return (
    <div className="place-search">
      <label className="sr-only" {...cb.getLabelProps()}>Find a place</label>
      <input type="search" placeholder="Find a place…" {...cb.getInputProps({ ref: input })} />
      <ul className={cb.isOpen && text ? 'combo-menu open' : 'combo-menu'} {...cb.getMenuProps({ 'aria-label': 'Places' })}>
        {cb.isOpen && items.map((p, i) => (
          <li key={`${p.name}-${p.iso3}-${p.lon}`} className={cb.highlightedIndex === i ? 'hl' : undefined} {...cb.getItemProps({ item: p, index: i })}>
            <span>{p.name}</span> <span className="muted small">{p.iso3} · {fmtPop(p.population)}</span>
          </li>
        ))}
        {cb.isOpen && text && places && items.length === 0 && <li className="muted small" role="presentation">No place of 20,000+ people named “{text}”</li>}
      </ul>
      <span className="sr-only" role="status" aria-live="polite">{err ?? flown}</span>
    </div>
  );
}
