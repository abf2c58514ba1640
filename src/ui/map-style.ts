/**
 * The map's own style (src/ui/MapView.tsx): the offline basemap from the bundle's GeoJSON
 * (ocean background, countries fill and borders, admin outlines, GSHHG lakes and rivers drawn
 * over the indicator layer), the choropleth fill, drawn areas and the marker. No remote tiles
 * or glyphs. Sources whose files come later start empty ({@link EMPTY}).
 */
import type { StyleSpecification } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import { SSA_GRID } from '../core/grid';

/** An empty GeoJSON source's data. */
export const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

/** The embedded bundle's window [w, s, e, n] degrees: the first view and the raster's bounds when the bundle gives none. */
export const SSA_BOUNDS: [number, number, number, number] = [SSA_GRID.xmin, SSA_GRID.ymin, SSA_GRID.xmax, SSA_GRID.ymax];

/**
 * The style of a new map.
 * @param countries the countries' GeoJSON URL, or {@link EMPTY} when an early fetch of it will be set once loaded
 */
export function baseStyle(countries: FeatureCollection | string): StyleSpecification {
  return {
    version: 8,
    sources: {
      countries: { type: 'geojson', data: countries },
      // admin outlines: set on load when the manifest lists them (src/ui/bundle-files.ts)
      admin1: { type: 'geojson', data: EMPTY, promoteId: 'value' },
      admin2: { type: 'geojson', data: EMPTY, promoteId: 'value' },
      // lakes and major rivers (GSHHG): set on load when the manifest lists them
      lakes: { type: 'geojson', data: EMPTY },
      rivers: { type: 'geojson', data: EMPTY },
      areas: { type: 'geojson', data: EMPTY },
      marker: { type: 'geojson', data: EMPTY },
    },
    layers: [
      { id: 'ocean', type: 'background', paint: { 'background-color': '#d7e6f0' } },
      { id: 'countries-fill', type: 'fill', source: 'countries', paint: { 'fill-color': '#f4f2ec' } },
      { id: 'choropleth', type: 'fill', source: 'admin1', paint: { 'fill-color': '#888888', 'fill-opacity': 0 } },
      // water above the indicator raster and the choropleth, so lakes such as Lake Victoria stay visible
      { id: 'lakes-fill', type: 'fill', source: 'lakes', paint: { 'fill-color': '#b5d3ea', 'fill-outline-color': '#3d7fb3' } },
      { id: 'rivers-line', type: 'line', source: 'rivers', filter: ['any', ['==', ['get', 'class'], 1], ['>=', ['zoom'], 4]], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#3d7fb3', 'line-width': ['interpolate', ['linear'], ['zoom'], 3, ['match', ['get', 'class'], 1, 0.8, 0.4], 8, ['match', ['get', 'class'], 1, 2, 1.2]] } },
      { id: 'admin2-line', type: 'line', source: 'admin2', minzoom: 5, paint: { 'line-color': '#8a8a8a', 'line-width': 0.3, 'line-opacity': 0.6 } },
      { id: 'admin1-line', type: 'line', source: 'admin1', minzoom: 2.5, paint: { 'line-color': '#6b6b6b', 'line-width': 0.4, 'line-opacity': 0.6 } },
      { id: 'countries-line', type: 'line', source: 'countries', paint: { 'line-color': '#3c3c3c', 'line-width': 0.9 } },
      { id: 'areas-fill', type: 'fill', source: 'areas', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#ff6a00', 'fill-opacity': 0.15 } },
      { id: 'areas-line', type: 'line', source: 'areas', paint: { 'line-color': '#d94f00', 'line-width': 2 } },
      { id: 'areas-point', type: 'circle', source: 'areas', filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 5, 'circle-color': '#d94f00', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } },
      { id: 'marker', type: 'circle', source: 'marker', paint: { 'circle-radius': 6, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': '#111', 'circle-stroke-width': 2 } },
    ],
  };
}
