/**
 * R-compatible number formatting and `cut()` interval labels.
 *
 * R's `cut.default` (base R 4.2, src/library/base/R/cut.R) labels intervals with
 * `formatC(0 + breaks, digits = dig, width = 1)`, i.e. C `sprintf("%.{dig}g")`, trying
 * `dig = dig.lab, ..., max(12, dig.lab)` until adjacent labels differ; right-closed
 * intervals read `(a,b]`.
 */

/**
 * C `printf("%.{digits}g", x)` as glibc prints it (what R `formatC(x, digits, format = "g")`
 * and hence `cut()` labels use): `digits` significant digits (0 counts as 1) rounded from the
 * exact binary value, an exact tie going to the even digit (`%.1g` of 2500 is `2e+03`, of 1500
 * `2e+03`; JavaScript's `toExponential` would give `3e+3`), scientific notation when the
 * exponent is below -4 or at least `digits`, trailing zeros removed, exponent with a sign and
 * at least two digits (`1e+03`).
 */
export function formatG(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Inf' : '-Inf';
  const p = Math.max(1, Math.min(100, Math.floor(digits)));
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // 101 significant digits: beyond a double's distance to any shorter decimal, so ties are exact
  const [mant, e] = Math.abs(x).toExponential(100).split('e');
  const all = mant.replace('.', '');
  let X = Number(e);
  let head = all.slice(0, p);
  const tail = all.slice(p);
  const rest = /[1-9]/.test(tail.slice(1));
  const up = tail[0] > '5' || (tail[0] === '5' && (rest || (Number(head[p - 1]) % 2 === 1)));
  if (up) {
    const d = head.split('').map(Number);
    let k = p - 1;
    while (k >= 0 && d[k] === 9) { d[k] = 0; k--; }
    if (k < 0) { d.unshift(1); d.pop(); X += 1; } else d[k] += 1;
    head = d.join('');
  }
  const sign = x < 0 ? '-' : '';
  const trim = (t: string) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (X < -4 || X >= p) {
    const ae = Math.abs(X);
    return `${sign}${trim(p > 1 ? `${head[0]}.${head.slice(1)}` : head)}e${X < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
  }
  const fixed = X >= 0 ? `${head.slice(0, X + 1)}.${head.slice(X + 1)}` : `0.${'0'.repeat(-X - 1)}${head}`;
  return sign + trim(fixed);
}

/**
 * Labels of R `cut(x, breaks, right = TRUE, dig.lab = digLab)`.
 * @param breaks increasing break points (n + 1 of them for n intervals)
 * @returns n labels such as `(500,1000]`
 */
export function cutLabels(breaks: number[], digLab = 3): string[] {
  const nb = breaks.length;
  let ch: string[] = [];
  let ok = false;
  for (let dig = digLab; dig <= Math.max(12, digLab); dig++) {
    ch = breaks.map((b) => formatG(0 + b, dig));
    ok = ch.slice(1).every((c, i) => c !== ch[i]);
    if (ok) break;
  }
  if (!ok) return Array.from({ length: nb - 1 }, (_, i) => `Range_${i + 1}`);
  return ch.slice(0, -1).map((c, i) => `(${c},${ch[i + 1]}]`);
}

/**
 * The `dig.lab` this project passes to R `cut()`: the smallest value from 3 up to 15 at
 * which every break prints exactly (so 1000 prints as `1000`, not R's default `1e+03`).
 * `cut(x, breaks, dig.lab = labelDigits(breaks))` in R gives the same labels.
 */
export function labelDigits(breaks: number[]): number {
  for (let d = 3; d < 15; d++) {
    const exact = (b: number) => {
      if (!Number.isFinite(b)) return true;
      const f = formatG(b, d);
      return Number(f) === b && (!f.includes('e') || Math.abs(b) < 1e-4);
    };
    if (breaks.every(exact)) return d;
  }
  return 15;
}

/**
 * Index of the right-closed interval `(b[i], b[i+1]]` holding `v`, or -1 (outside, NaN),
 * as R `.bincode(v, breaks, right = TRUE, include.lowest = FALSE)` minus one.
 */
export function intervalIndex(breaks: ArrayLike<number>, v: number): number {
  const n = breaks.length;
  if (!(v > breaks[0]) || !(v <= breaks[n - 1])) return -1;
  let lo = 0, hi = n - 1; // breaks[lo] < v <= breaks[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (v <= breaks[mid]) hi = mid;
    else lo = mid;
  }
  return lo;
}

/**
 * R `round(x, digits)` (R >= 4.0.0): to the nearest number with `digits` decimals, judged on
 * the exact binary value of `x` (so `round(0.15, 1)` is 0.1, since 0.15 is stored as
 * 0.1499999...), halves exactly representable going to the even digit (`round(2.5)` is 2).
 */
export function roundR(x: number, digits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e15) return x;
  const d = Math.max(0, Math.min(15, Math.floor(digits)));
  const p10 = 10 ** d;
  const m = Math.abs(x) * p10;
  if (m < 2 ** 50) {
    const fr = m - Math.floor(m);
    // Far from a half: the nearest is unambiguous despite the multiplication's rounding error.
    if (Math.abs(fr - 0.5) > 1e-6) {
      const r = Math.round(m) / p10;
      return r === 0 ? 0 : x < 0 ? -r : r;
    }
  }
  const s = Math.abs(x).toFixed(Math.min(100, d + 40)); // exact decimal expansion (ECMA-262 Number.prototype.toFixed)
  const dot = s.indexOf('.');
  const intDigits = s.slice(0, dot) + s.slice(dot + 1, dot + 1 + d);
  const tail = s.slice(dot + 1 + d);
  let n = Number(intDigits);
  const first = tail.charCodeAt(0) - 48;
  const restZero = /^0*$/.test(tail.slice(1));
  if (first > 5 || (first === 5 && !restZero) || (first === 5 && restZero && n % 2 === 1)) n += 1;
  const r = n / 10 ** d;
  return r === 0 ? 0 : x < 0 ? -r : r;
}
