/**
 * Shapes of the map view (src/ui/MapView.tsx) shared with its layer hooks (./map-layers.ts):
 * a leaf module, so the two never import each other.
 */
import type { Map as MlMap } from 'maplibre-gl';
import type { Feature, FeatureCollection } from 'geojson';

/** Loads one raster tile of a style key (null = empty tile). */
export type TileLoader = (key: string, z: number, x: number, y: number) => Promise<ImageBitmap | null>;

/** An online raster basemap (XYZ tiles, Web Mercator) drawn instead of the bundled land fill. */
export interface BasemapTiles {
  /** Identifier (changes replace the source). */
  id: string;
  /** https tile URL templates with {z}, {x}, {y}. */
  tiles: string[];
  /** Attribution shown in the map's attribution control. */
  attribution: string;
  /** Tile size in px. */
  tileSize: number;
  /** Highest zoom of the tiles. */
  maxzoom: number;
}

/** Drawing mode of the map. */
export type DrawMode = 'off' | 'point' | 'polygon';

/** A named point drawn on the map as an HTML label (the map has no glyphs), e.g. a catchment's sources. */
export interface MapLabel {
  /** Longitude, latitude, degrees. */
  lon: number;
  lat: number;
  /** Text shown. */
  text: string;
  /** Background colour (CSS); default the area-label orange. */
  color?: string;
}

/** Props of {@link MapView}. */
export interface MapViewProps {
  /** Bundle root URL ending in "/". */
  dataBase: string;
  /** Style key of the raster layer (null: none). */
  rasterKey: string | null;
  /** Draw the raster over the choropleth (a one-interval map's cells, transparent elsewhere); default under it. */
  rasterOverChoropleth?: boolean;
  /** Raster opacity 0..1. */
  opacity: number;
  /** Loads raster tiles (runs in a worker). */
  loadTile: TileLoader;
  /** Choropleth: [unit key, colour] pairs (the admin key layer's raster value; for countries the ISO 3166-1 alpha-3 code); null: none. */
  choropleth: Array<[number | string, string]> | null;
  /**
   * Units of the choropleth: 0 (basemap/countries.geojson, joined on its `iso3`), 1
   * (basemap/admin1.geojson, the default) or 2 (basemap/admin2.geojson), joined on `value`, the key layer's raster value.
   */
  choroplethLevel?: 0 | 1 | 2;
  /** Drawn or pasted areas to show; each is numbered on the map by its `id` property (its `feature` number). */
  areas: FeatureCollection | null;
  /** A marked point [lon, lat]. */
  marker: [number, number] | null;
  /** Named points labelled on the map (null or absent: none). */
  labels?: MapLabel[] | null;
  /** Bounds to fit when they change: [w, s, e, n] degrees. */
  fit: [number, number, number, number] | null;
  /** Drawing mode. */
  drawMode: DrawMode;
  /** A finished drawn feature (terra-draw), in EPSG:4326. */
  onDrawn: (f: Feature) => void;
  /** Pointer moved to / left a position. */
  onHover: (lngLat: [number, number] | null) => void;
  /** Click at a position (not while drawing). */
  onClick: (lngLat: [number, number]) => void;
  /** Called once the map is idle after the first raster render (for timing). */
  onRendered?: () => void;
  /**
   * Progressive drawing (the raster worker's `refined`): asked at each idle moment of the map
   * for the current style key; resolves true when tiles drawn from a coarser preview can now
   * be drawn from their own level, and the map then draws the raster tiles again.
   */
  refineTiles?: (key: string) => Promise<boolean>;
  /** Map view [centre longitude, latitude, zoom] to show (e.g. from a link, or Back); null = the default/fitted view. */
  view?: [number, number, number] | null;
  /** The view after each move ends (pans, zooms, fits): [centre longitude, latitude, zoom]. */
  onView?: (v: [number, number, number]) => void;
  /** The MapLibre map, once created (place labels and search, map export). */
  onMap?: (map: MlMap) => void;
  /** A second map beside the main one (layer comparison): not exposed as `window.__indapiMap` but as `__indapiMap2`. */
  secondary?: boolean;
  /** An online basemap under the layers instead of the bundled land fill (null/undefined: the bundled basemap). */
  basemap?: BasemapTiles | null;
  /** The online basemap's tiles failed (offline, blocked): the caller falls back to the bundled basemap. */
  onBasemapError?: (message: string) => void;
  /** Accessible name of the map region (default: the main map's). */
  label?: string;
  /**
   * The bundle's window [west, south, east, north] in degrees (manifest.json `grid`; default the
   * embedded bundle's [-26, -35, 64, 28]): the first view without `view`, and where raster tiles are drawn.
   */
  gridBounds?: [number, number, number, number];
}
