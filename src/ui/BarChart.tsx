/**
 * Bar chart of a result column with Vega-Lite (compiled to Vega, rendered as SVG; both
 * loaded on demand so they stay out of the initial JavaScript). Values are summaries
 * (means, shares, ...), so bars are never stacked: rows sharing a category are drawn side
 * by side (grouped by the colour field).
 */
import { useEffect, useRef, useState } from 'react';
import type { Row } from '../core/types';

/** Props of {@link BarChart}. */
export interface BarChartProps {
  rows: Row[];
  /** Category field (x). */
  x: string;
  /** Value field (y). */
  y: string;
  /** Optional colour field (e.g. ISO3): bars of one category are grouped side by side by it. */
  color?: string;
  /** Text of a row's colour group (default: its `color` cell), e.g. "1,500-6,000 m" for an R interval label. */
  colorLabel?: (r: Row) => string;
  /** Order of the colour groups (legend and bars within a category), e.g. interval order. */
  colorOrder?: string[];
  /** Fill of each category's bar (category -> CSS colour; without `color`), e.g. a map's band shades; others the default blue. */
  barColours?: Record<string, string>;
  /** Legend title of the colours (default: `color`). */
  colorTitle?: string;
  /** Caption (what is charted). */
  title: string;
  /** Axis title of the categories (default: `x`). */
  xTitle?: string;
  /** Axis title of the values, e.g. "Elevation (ETOPO5) (m)" (default: `y`). */
  yTitle?: string;
  /** Category text of a row (default: its `x` cell), e.g. "1 · Kenya". */
  label?: (r: Row) => string;
  /** Category order (e.g. class or interval order); default: by value, largest first. */
  order?: string[];
  /** Most bars drawn (default 25, readable horizontal bars); with more rows the largest values are kept and the caption says "top N of M". */
  max?: number;
  /** Where the full list is, said in the caption when bars are cut (default "in the table below"). */
  fullList?: string;
}

/** One bar: category, value, group. */
export interface Bar { x: string; y: number; c: string }

/**
 * The bars to draw: rows with a numeric value, sorted by value (largest first) before the
 * cut to `max`, or in `order` of the categories when given; and the category order.
 */
export function chartBars(rows: Row[], p: Pick<BarChartProps, 'x' | 'y' | 'color' | 'colorLabel' | 'label' | 'order' | 'max'>): { bars: Bar[]; cats: string[]; total: number; cut: boolean } {
  const max = p.max ?? 25;
  const all: Bar[] = rows.filter((r) => typeof r[p.y] === 'number' && Number.isFinite(r[p.y] as number))
    .map((r) => ({ x: p.label ? p.label(r) : String(r[p.x] ?? 'all'), y: r[p.y] as number, c: p.colorLabel ? p.colorLabel(r) : p.color ? String(r[p.color] ?? '') : '' }));
  let bars: Bar[];
  if (p.order) {
    const rank = new Map(p.order.map((v, i) => [v, i]));
    const rk = (b: Bar) => rank.get(b.x) ?? Number.MAX_SAFE_INTEGER;
    bars = [...all].sort((a, b) => rk(a) - rk(b) || (rk(a) === Number.MAX_SAFE_INTEGER ? a.x.localeCompare(b.x, undefined, { numeric: true }) : 0)).slice(0, max);
  } else {
    bars = [...all].sort((a, b) => b.y - a.y).slice(0, max);
  }
  const cats = [...new Set(bars.map((b) => b.x))];
  return { bars, cats, total: all.length, cut: all.length > bars.length };
}

/**
 * Splits an axis title into lines of at most `maxChars` characters at spaces (a word longer
 * than that keeps its own line), for Vega-Lite's multi-line titles: a long vertical title
 * ("Population of places of 1000+ people (GeoNames) (people)") would otherwise run past the
 * ends of a short plot on a phone. The unit, last, stays whole.
 * @returns the title itself when it fits one line, else its lines
 */
export function wrapTitle(text: string, maxChars: number): string | string[] {
  if (text.length <= maxChars) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Characters per line of a vertical value-axis title (about 170 px of plot at 11 px bold). */
const VERTICAL_TITLE_CHARS = 28;

/**
 * Resolves at the page's next idle moment (requestIdleCallback, at most 1 s later; a macrotask
 * where the browser has none). A chart is compiled and drawn there, one chart per moment: a
 * result with many charts (12 per-source charts of a marketshed, each ~50-100 ms of Vega on a busy
 * machine) no longer blocks, in one long task, the table's paint and the map layer of the same
 * result (bench/catchment-panel.ts).
 */
function idleMoment(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 0);
  });
}

/** The bar chart (Vega-Lite, SVG renderer, CSP-safe expression interpreter) with its caption. */
export function BarChart({ rows, x, y, color, colorLabel, colorOrder, colorTitle, barColours, title, xTitle, yTitle, label, order, max = 25, fullList = 'in the table below' }: BarChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const [err, setErr] = useState<string | null>(null);
  const { bars, cats, total, cut } = chartBars(rows, { x, y, color, colorLabel, label, order, max });
  const key = JSON.stringify([bars, cats, xTitle, yTitle, color, colorOrder, colorTitle, barColours]);
  useEffect(() => {
    let view: { finalize(): void } | null = null;
    let cancelled = false;
    (async () => {
      // vega-interpreter evaluates Vega expressions without `new Function`: the app's CSP allows no eval
      const [vega, vl, { expressionInterpreter }] = await Promise.all([import('vega'), import('vega-lite'), import('vega-interpreter')]);
      await idleMoment();
      if (cancelled || !el.current) return; // a newer chart replaced this one while the libraries loaded
      const grouped = !!color && cats.length < bars.length; // some category has several bars: side by side
      const horizontal = bars.length > 12;
      const cat = { field: 'x', type: 'nominal', sort: cats, title: horizontal ? wrapTitle(xTitle ?? x, VERTICAL_TITLE_CHARS) : (xTitle ?? x), axis: { labelLimit: 180, ...(horizontal ? {} : { labelAngle: -45 }) } };
      const maxAbs = Math.max(0, ...bars.map((d) => Math.abs(d.y)));
      const val = { field: 'y', type: 'quantitative', title: horizontal ? (yTitle ?? y) : wrapTitle(yTitle ?? y, VERTICAL_TITLE_CHARS), stack: null, axis: { format: maxAbs >= 1e5 ? '~s' : ',~r' } };
      const offset = grouped ? { [horizontal ? 'yOffset' : 'xOffset']: { field: 'c', type: 'nominal', ...(colorOrder ? { sort: colorOrder } : {}) } } : {};
      const cTitle = colorTitle ?? color;
      const spec: any = {
        $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
        width: 'container', height: horizontal ? Math.min(1400, bars.length * 16 + cats.length * 3) : 300, autosize: { type: 'fit', contains: 'padding' },
        data: { values: bars },
        mark: { type: 'bar' },
        encoding: {
          ...(horizontal ? { y: cat, x: val } : { x: cat, y: val }),
          ...offset,
          ...(color ? { color: { field: 'c', type: 'nominal', title: cTitle, sort: colorOrder ?? 'ascending', scale: { scheme: 'tableau10' }, legend: { orient: horizontal ? 'top' : 'right', direction: 'vertical', labelLimit: 220, titleLimit: 150 } } } : barColours ? { color: { field: 'x', type: 'nominal', scale: { domain: cats, range: cats.map((k) => barColours[k] ?? '#2f6f9f') }, legend: null } } : { color: { value: '#2f6f9f' } }),
          tooltip: [{ field: 'x', type: 'nominal', title: xTitle ?? x }, ...(color ? [{ field: 'c', type: 'nominal', title: cTitle }] : []), { field: 'y', type: 'quantitative', title: yTitle ?? y, format: ',.6~r' }],
        },
        config: { font: 'system-ui, sans-serif', axis: { labelFontSize: 10, titleFontSize: 11 } },
      };
      const compiled = vl.compile(spec).spec;
      el.current.replaceChildren(); // never leave an older chart's SVG beside the new one
      const v = new vega.View(vega.parse(compiled, undefined, { ast: true }), { renderer: 'svg', container: el.current, hover: true, expr: expressionInterpreter });
      view = v;
      await v.runAsync();
      if (cancelled) v.finalize();
    })().catch((e) => setErr(String(e?.message ?? e)));
    return () => { cancelled = true; view?.finalize(); };
  }, [key]);
  return (
    <figure className="chart" data-bars={bars.length}>
      <div ref={el} role="img" aria-label={title} />
      <figcaption className="muted small">{title}{cut ? ` · ${order ? `first ${bars.length}` : `top ${bars.length}`} of ${total}${order ? '' : ' by value'}; all ${total} ${fullList}` : ''}</figcaption>
      {err && <p className="msg error">Chart failed: {err}</p>}
    </figure>
  );
}
