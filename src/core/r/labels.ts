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
 * R `round(x, digits)` as R >= 4.0.0 computes it (src/nmath/fround.c, "round to even on the
 * representable value"): with p = 10^digits, the two candidates floor(x p) / p and
 * ceil(x p) / p are formed in double arithmetic and the one nearer to x (differences taken in
 * double) wins; on an exact tie the one whose x p floor is even. So `round(0.15, 1)` is 0.1
 * (0.15 is stored as 0.1499999...), `round(2.5)` is 2, `round(2.675, 2)` follows R. `digits`
 * is rounded to an integer; 0 rounds half to even; x with more than 15 significant digits at
 * that precision is returned as is. -0 is returned as 0 (JSON has no -0).
 * @param x the number (NaN, ±Inf returned as they are)
 * @param digits decimal places (negative: tens, hundreds, ...)
 */
export function roundR(x: number, digits: number): number {
  if (Number.isNaN(x) || Number.isNaN(digits)) return x + digits;
  if (!Number.isFinite(x) || x === 0 || digits > 323) return x;
  if (digits < -308) return 0;
  let r: number;
  if (digits === 0) r = roundHalfEven(x);
  else {
    const dig = Math.floor(digits + 0.5);
    const ax = Math.abs(x);
    if (LOG10_2 * (0.5 + logb(ax)) + dig > 15) return x; // no rounding needed at that many digits
    let xd: number, xu: number, i10: number;
    if (dig <= 308) {
      const p10 = powDi(10, dig), x10 = ax * p10;
      i10 = Math.floor(x10);
      xd = i10 / p10;
      xu = Math.ceil(x10) / p10;
    } else { // |x| ~ 1e-305: scale in two steps so that 10^dig does not overflow
      const p10 = powDi(10, 308), e10 = powDi(10, dig - 308), x10 = ax * p10 * e10;
      i10 = Math.floor(x10);
      xd = i10 / p10 / e10;
      xu = Math.ceil(x10) / p10 / e10;
    }
    const du = xu - ax, dd = ax - xd;
    r = du < dd || (i10 % 2 === 1 && du === dd) ? xu : xd;
    if (x < 0) r = -r;
  }
  return r === 0 ? 0 : r;
}

/** log10(2), as R's M_LOG10_2. */
const LOG10_2 = 0.3010299956639812;
const f64 = new DataView(new ArrayBuffer(8));

/** C `logb`: the binary exponent of x > 0 (floor(log2 x), exact). */
function logb(x: number): number {
  f64.setFloat64(0, x);
  const e = (f64.getUint16(0) >> 4) & 0x7ff;
  return e === 0 ? Math.floor(Math.log2(x)) : e - 1023; // subnormal: as if normalised
}

/** R's `R_pow_di`: x^n by repeated squaring (n < 0: of 1/x), as R forms 10^digits. */
function powDi(x: number, n: number): number {
  let p = 1;
  if (n < 0) { n = -n; x = 1 / x; }
  for (;;) {
    if (n & 1) p *= x;
    n >>= 1;
    if (!n) break;
    x *= x;
  }
  return p;
}

/** C `nearbyint` in the default rounding mode: to the nearest integer, halves to even. */
function roundHalfEven(x: number): number {
  const f = Math.floor(x), d = x - f;
  return d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
}
