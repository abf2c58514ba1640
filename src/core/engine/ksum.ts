/**
 * Compensated summation (Neumaier 1974, "Rundungsfehleranalyse einiger Verfahren zur
 * Summation endlicher Summen", ZAMM 54: the improved Kahan-Babuska sum) for the engine's
 * per-group sums, so that they match R's: R's `sum()` accumulates in long double (64-bit
 * significand on x86_64) and rounds once to double, which is the correctly rounded sum of the
 * terms in all but contrived cases; a plain float64 running sum can be a few units in the last
 * place off, enough to move a mean that lies on a rounding tie (x.x5) to the other side.
 *
 * A sum is a pair of arrays: `s` (the running float64 sum per group) and `c` (the low-order
 * parts lost by each addition, summed); the result is `s + c`, within about one rounding of
 * the exact sum while the terms' condition number stays below 2^53.
 */

/**
 * Adds x to the compensated sum of slot g (Neumaier's step: the rounding error of s + x,
 * recovered exactly with the larger operand first, goes to c).
 */
export function addTo(s: Float64Array, c: Float64Array, g: number, x: number): void {
  const a = s[g], t = a + x;
  c[g] += Math.abs(a) >= Math.abs(x) ? a - t + x : x - t + a;
  s[g] = t;
}

/**
 * Folds the slots of each block of `S` slots into its summary entry (indices G .. G+C-1 with
 * G = C * S), compensated: the summary's s is the compensated sum of the slots' s, its c the
 * sum of their c plus the errors of that sum.
 * @param s running sums per slot (length >= G + C)
 * @param c their compensations (same length)
 * @param C blocks
 * @param S slots per block
 */
export function foldSum(s: Float64Array, c: Float64Array, C: number, S: number): void {
  const G = C * S;
  for (let b = 0; b < C; b++) {
    s[G + b] = 0;
    c[G + b] = 0;
    for (let k = 0; k < S; k++) {
      addTo(s, c, G + b, s[b * S + k]);
      c[G + b] += c[b * S + k];
    }
  }
}

/** Ends compensated sums: s[i] becomes s[i] + c[i] (the sum, rounded once). */
export function settle(s: Float64Array, c: Float64Array): void {
  for (let i = 0; i < s.length; i++) s[i] += c[i];
}
