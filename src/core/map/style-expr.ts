/**
 * The part of the MapLibre style expression language the app's own map style uses (src/ui/map-style.ts,
 * src/ui/map-layers.ts), evaluated for one feature at one zoom, so the map export can draw the
 * style's fills, lines and circles on a 2D canvas as the map does (MapLibre Style Spec,
 * "Expressions": `get`, `zoom`, `geometry-type`, comparisons, `any`/`all`/`!`, `match`, `case`,
 * `coalesce`, `step`, `interpolate` with `linear` or `exponential`, `literal`). Anything else
 * throws {@link UnsupportedExpression}: the caller then draws the map another way. Pure: no DOM.
 */

/** What an expression is evaluated against: the zoom and one GeoJSON feature. */
export interface ExprContext {
  /** Map zoom (MapLibre's, 512-px world). */
  zoom: number;
  /** The feature's properties. */
  props: Record<string, unknown> | null;
  /** "Point", "LineString" or "Polygon" (a Multi* geometry as its single kind, as MapLibre filters see it). */
  geometryType: string;
}

/** An expression operator or form this evaluator does not know. */
export class UnsupportedExpression extends Error {
  /** Error code (typed errors, src/core/errors.ts style). */
  readonly code = 'UNSUPPORTED_EXPRESSION';
}

type Expr = unknown;

/** Linear or exponential interpolation between stops [input, output, ...] (numbers only). */
function interpolate(kind: Expr, x: number, stops: Expr[], c: ExprContext): unknown {
  const base = Array.isArray(kind) && kind[0] === 'exponential' ? Number(kind[1]) : Array.isArray(kind) && kind[0] === 'linear' ? 1 : NaN;
  if (Number.isNaN(base)) throw new UnsupportedExpression(`interpolation ${JSON.stringify(kind)}`);
  const n = stops.length / 2;
  const at = (i: number) => Number(stops[2 * i]);
  if (x <= at(0)) return evalExpr(stops[1], c);
  if (x >= at(n - 1)) return evalExpr(stops[2 * n - 1], c);
  let i = 0;
  while (x > at(i + 1)) i++;
  const lo = Number(evalExpr(stops[2 * i + 1], c)), hi = Number(evalExpr(stops[2 * i + 3], c));
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new UnsupportedExpression('interpolation of non-numbers');
  const d = at(i + 1) - at(i), p = x - at(i);
  const t = base === 1 ? p / d : (base ** p - 1) / (base ** d - 1);
  return lo + (hi - lo) * t;
}

/** `match`: the output of the first label equal to the input (a label may be a list), else the default. */
function match(args: Expr[], c: ExprContext): unknown {
  const input = evalExpr(args[0], c);
  for (let i = 1; i + 1 < args.length; i += 2) {
    const labels = Array.isArray(args[i]) ? (args[i] as unknown[]) : [args[i]];
    if (labels.includes(input)) return evalExpr(args[i + 1], c);
  }
  return evalExpr(args[args.length - 1], c);
}

/** Comparison operators. */
const COMPARE: Record<string, (a: any, b: any) => boolean> = {
  '==': (a, b) => a === b, '!=': (a, b) => a !== b, '<': (a, b) => a < b, '<=': (a, b) => a <= b, '>': (a, b) => a > b, '>=': (a, b) => a >= b,
};

/**
 * The value of expression `e` for context `c` (a plain value is itself).
 * @throws UnsupportedExpression for an operator or form outside the subset above
 */
export function evalExpr(e: Expr, c: ExprContext): unknown {
  if (!Array.isArray(e)) {
    if (e !== null && typeof e === 'object') throw new UnsupportedExpression('a legacy function');
    return e;
  }
  const [op, ...a] = e as [unknown, ...Expr[]];
  if (typeof op === 'string' && op in COMPARE) return COMPARE[op](evalExpr(a[0], c), evalExpr(a[1], c));
  switch (op) {
    case 'literal': return a[0];
    case 'get': return c.props?.[String(evalExpr(a[0], c))] ?? null;
    case 'zoom': return c.zoom;
    case 'geometry-type': return c.geometryType;
    case 'any': return a.some((x) => evalExpr(x, c) === true);
    case 'all': return a.every((x) => evalExpr(x, c) === true);
    case '!': return evalExpr(a[0], c) !== true;
    case 'match': return match(a, c);
    case 'case': {
      for (let i = 0; i + 1 < a.length; i += 2) if (evalExpr(a[i], c) === true) return evalExpr(a[i + 1], c);
      return evalExpr(a[a.length - 1], c);
    }
    case 'coalesce': {
      for (const x of a) { const v = evalExpr(x, c); if (v !== null && v !== undefined) return v; }
      return null;
    }
    case 'step': {
      const x = Number(evalExpr(a[0], c));
      let out = a[1];
      for (let i = 2; i + 1 < a.length; i += 2) if (x >= Number(a[i])) out = a[i + 1];
      return evalExpr(out, c);
    }
    case 'interpolate': return interpolate(a[0], Number(evalExpr(a[1], c)), a.slice(2), c);
    default: throw new UnsupportedExpression(`expression operator ${JSON.stringify(op)}`);
  }
}

/** True when `filter` (an expression; undefined = none) keeps the feature. @throws UnsupportedExpression */
export function passes(filter: Expr | undefined, c: ExprContext): boolean {
  return filter === undefined || filter === null || evalExpr(filter, c) === true;
}
