/** Pure helpers of the Catchment panel. */

/** Parses "0, 60, 120" into increasing minutes, or an error text. */
export function parseBreaks(text: string): number[] | string {
  const xs = text.split(/[\s,;]+/).filter(Boolean).map(Number);
  if (xs.length < 2 || !xs.every((x) => Number.isFinite(x) && x >= 0)) return 'Give at least two numbers of minutes, e.g. 0, 60, 120, 240.';
  for (let i = 1; i < xs.length; i++) if (!(xs[i] > xs[i - 1])) return `Breaks must increase: ${xs[i]} follows ${xs[i - 1]}.`;
  return xs;
}
