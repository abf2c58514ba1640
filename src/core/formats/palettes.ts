/**
 * ColorBrewer palettes for `pal`.
 *
 * Colours from www.ColorBrewer.org by Cynthia A. Brewer, Geography, Pennsylvania State
 * University (Apache License 2.0), via the `d3-scale-chromatic` package, which carries
 * the n-class variants of each scheme. Names match R's `RColorBrewer` (case-insensitive).
 */
import * as chroma from 'd3-scale-chromatic';

type Scheme = ReadonlyArray<ReadonlyArray<string>> | ReadonlyArray<string>;

/** Palettes by R name: sequential (max 9), diverging (max 11), qualitative (fixed). */
export const PALETTES: Record<string, { kind: 'seq' | 'div' | 'qual'; scheme: Scheme }> = {
  Blues: { kind: 'seq', scheme: chroma.schemeBlues },
  BuGn: { kind: 'seq', scheme: chroma.schemeBuGn },
  BuPu: { kind: 'seq', scheme: chroma.schemeBuPu },
  GnBu: { kind: 'seq', scheme: chroma.schemeGnBu },
  Greens: { kind: 'seq', scheme: chroma.schemeGreens },
  Greys: { kind: 'seq', scheme: chroma.schemeGreys },
  Oranges: { kind: 'seq', scheme: chroma.schemeOranges },
  OrRd: { kind: 'seq', scheme: chroma.schemeOrRd },
  PuBu: { kind: 'seq', scheme: chroma.schemePuBu },
  PuBuGn: { kind: 'seq', scheme: chroma.schemePuBuGn },
  PuRd: { kind: 'seq', scheme: chroma.schemePuRd },
  Purples: { kind: 'seq', scheme: chroma.schemePurples },
  RdPu: { kind: 'seq', scheme: chroma.schemeRdPu },
  Reds: { kind: 'seq', scheme: chroma.schemeReds },
  YlGn: { kind: 'seq', scheme: chroma.schemeYlGn },
  YlGnBu: { kind: 'seq', scheme: chroma.schemeYlGnBu },
  YlOrBr: { kind: 'seq', scheme: chroma.schemeYlOrBr },
  YlOrRd: { kind: 'seq', scheme: chroma.schemeYlOrRd },
  BrBG: { kind: 'div', scheme: chroma.schemeBrBG },
  PiYG: { kind: 'div', scheme: chroma.schemePiYG },
  PRGn: { kind: 'div', scheme: chroma.schemePRGn },
  PuOr: { kind: 'div', scheme: chroma.schemePuOr },
  RdBu: { kind: 'div', scheme: chroma.schemeRdBu },
  RdGy: { kind: 'div', scheme: chroma.schemeRdGy },
  RdYlBu: { kind: 'div', scheme: chroma.schemeRdYlBu },
  RdYlGn: { kind: 'div', scheme: chroma.schemeRdYlGn },
  Spectral: { kind: 'div', scheme: chroma.schemeSpectral },
  Accent: { kind: 'qual', scheme: chroma.schemeAccent },
  Dark2: { kind: 'qual', scheme: chroma.schemeDark2 },
  Paired: { kind: 'qual', scheme: chroma.schemePaired },
  Pastel1: { kind: 'qual', scheme: chroma.schemePastel1 },
  Pastel2: { kind: 'qual', scheme: chroma.schemePastel2 },
  Set1: { kind: 'qual', scheme: chroma.schemeSet1 },
  Set2: { kind: 'qual', scheme: chroma.schemeSet2 },
  Set3: { kind: 'qual', scheme: chroma.schemeSet3 },
};

/** Attribution line for maps that use these palettes. */
export const COLORBREWER_ATTRIBUTION = 'Colours: ColorBrewer.org, Cynthia A. Brewer, Penn State';

function hex2rgb(h: string): [number, number, number] {
  const n = parseInt(h.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function rgb2hex([r, g, b]: number[]): string {
  return `#${[r, g, b].map((x) => Math.round(x).toString(16).padStart(2, '0')).join('')}`;
}

/** Linear interpolation in RGB through a list of colours, `n` samples end to end. */
function ramp(colors: readonly string[], n: number): string[] {
  if (n === 1) return [colors[Math.floor(colors.length / 2)]];
  const rgb = colors.map(hex2rgb);
  return Array.from({ length: n }, (_, i) => {
    const t = (i / (n - 1)) * (rgb.length - 1);
    const k = Math.min(rgb.length - 2, Math.floor(t));
    const f = t - k;
    return rgb2hex(rgb[k].map((c, j) => c + f * (rgb[k + 1][j] - c)));
  });
}

/**
 * Resolves a palette name (case-insensitive) to its canonical name, or undefined.
 * @param name e.g. "ylorrd"
 */
export function paletteName(name: string): string | undefined {
  return Object.keys(PALETTES).find((k) => k.toLowerCase() === name.trim().toLowerCase());
}

/**
 * `n` colours `#rrggbb` of a ColorBrewer palette: the scheme's own n-class variant when it
 * has one; fewer than 3 classes take the first colours of the 3-class variant (sequential:
 * its ends); more classes than the scheme has are interpolated in RGB (sequential,
 * diverging) or cycled (qualitative).
 * @param name palette name, e.g. "YlOrRd"
 * @param n number of classes (>= 1)
 * @returns colours, or undefined for an unknown name
 */
export function paletteColors(name: string, n: number): string[] | undefined {
  const key = paletteName(name);
  if (!key) return undefined;
  const { kind, scheme } = PALETTES[key];
  if (kind === 'qual') {
    const cols = scheme as readonly string[];
    return Array.from({ length: n }, (_, i) => cols[i % cols.length]);
  }
  const variants = scheme as ReadonlyArray<ReadonlyArray<string>>;
  const max = variants.length - 1;
  if (n >= 3 && n <= max) return [...variants[n]];
  if (n < 3) return n === 1 ? [variants[3][1]] : [variants[3][0], variants[3][2]];
  return ramp(variants[max], n);
}
