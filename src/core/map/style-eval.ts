/**
 * Style values and filters of a MapLibre layer evaluated for one feature at one zoom, so the map
 * export can draw the style's fills, lines and circles on a 2D canvas as the map does. The
 * evaluation is MapLibre's own (`@maplibre/maplibre-gl-style-spec`: `createPropertyExpression`,
 * `featureFilter`), the same code the map runs, so every expression of the MapLibre Style Spec
 * is evaluated as on screen. What cannot be evaluated without a live map (an expression that
 * does not compile, `feature-state`) throws {@link UnsupportedExpression}: the caller then draws
 * the map another way. Pure: no DOM.
 */
import { createPropertyExpression, featureFilter, latest } from '@maplibre/maplibre-gl-style-spec';

/** What an expression is evaluated against: the zoom and one GeoJSON feature. */
export interface ExprContext {
  /** Map zoom (MapLibre's, 512-px world). */
  zoom: number;
  /** The feature's properties. */
  props: Record<string, unknown> | null;
  /** "Point", "LineString" or "Polygon" (a Multi* geometry as its single kind, as MapLibre filters see it). */
  geometryType: string;
}

/** An expression the export cannot evaluate without a live map. */
export class UnsupportedExpression extends Error {
  /** Error code (typed errors, src/core/errors.ts style). */
  readonly code = 'UNSUPPORTED_EXPRESSION';
}

/** MapLibre's geometry type numbers (vector tile spec: 1 point, 2 line, 3 polygon). */
const GEOMETRY_TYPE: Record<string, 1 | 2 | 3> = { Point: 1, LineString: 2, Polygon: 3 };

/** A compiled value: evaluates for a zoom and a feature. */
type Compiled = (c: ExprContext) => unknown;

/** Compiled values by layer type, group, property and the value's JSON (the style's values are few). */
const compiled = new Map<string, Compiled>();
/** Compiled filters by their JSON. */
const filters = new Map<string, Compiled>();

/** The feature as the style-spec evaluators take it. */
function featureOf(c: ExprContext): { type: 1 | 2 | 3; properties: Record<string, unknown> } {
  return { type: GEOMETRY_TYPE[c.geometryType] ?? 1, properties: c.props ?? {} };
}

/** Refuses what a map without state cannot evaluate. @throws UnsupportedExpression */
function refuseState(json: string): void {
  if (json.includes('"feature-state"')) throw new UnsupportedExpression('feature-state needs the live map');
}

/** A colour as the canvas takes it (`rgba(r,g,b,a)`), any other value as it is. */
function plain(v: unknown): unknown {
  return v !== null && typeof v === 'object' && 'r' in v && 'a' in v && typeof (v as { toString: unknown }).toString === 'function' ? String(v) : v;
}

/**
 * The value of paint or layout property `prop` of a layer of type `layerType` (`fill`, `line`,
 * `circle`, `background`, `raster`...) for context `c`: `value` as the style gives it (a
 * constant or an expression). Colours come back as `rgba(r,g,b,a)` strings (0-255, alpha 0-1).
 * @throws UnsupportedExpression when the property is unknown to the style spec or the expression
 *   does not compile (the parsing errors in the message)
 */
export function styleValue(layerType: string, group: 'paint' | 'layout', prop: string, value: unknown, c: ExprContext): unknown {
  const json = JSON.stringify(value);
  const key = `${layerType}|${group}|${prop}|${json}`;
  let f = compiled.get(key);
  if (!f) {
    refuseState(json);
    const spec = (latest as unknown as Record<string, Record<string, unknown> | undefined>)[`${group}_${layerType}`]?.[prop];
    if (!spec) throw new UnsupportedExpression(`${group} property ${prop} of a ${layerType} layer`);
    const r = createPropertyExpression(value, prop, spec as never);
    if (r.result !== 'success') throw new UnsupportedExpression(`${prop}: ${(r.value as Array<{ message: string }>).map((e) => e.message).join('; ')}`);
    const expr = r.value;
    f = (ctx) => plain(expr.evaluate({ zoom: ctx.zoom }, featureOf(ctx) as never));
    compiled.set(key, f);
  }
  return f(c);
}

/**
 * True when `filter` (a style filter; undefined or null = none) keeps the feature.
 * @throws UnsupportedExpression when the filter does not compile or needs feature state
 */
export function passes(filter: unknown, c: ExprContext): boolean {
  if (filter === undefined || filter === null) return true;
  const json = JSON.stringify(filter);
  let f = filters.get(json);
  if (!f) {
    refuseState(json);
    let ff: ReturnType<typeof featureFilter>;
    try {
      ff = featureFilter(filter as never, 'filter');
    } catch (e) {
      throw new UnsupportedExpression(`filter: ${(e as Error).message}`);
    }
    f = (ctx) => ff.filter({ zoom: ctx.zoom } as never, featureOf(ctx) as never);
    filters.set(json, f);
  }
  return f(c) === true;
}
