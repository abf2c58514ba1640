/**
 * Geodesic distances on the WGS84 ellipsoid for the step lengths of the travel-time grid.
 *
 * Vincenty's inverse formula (T. Vincenty 1975, "Direct and inverse solutions of geodesics on
 * the ellipsoid with application of nested equations", Survey Review 23(176), 88-93), iterated
 * to |Δλ| < 1e-13 rad: accurate to well below 1e-9 relative for the short (< 20 km),
 * non-antipodal lines used here, the same as pyproj `Geod(ellps='WGS84').inv` (Karney) to that
 * precision (see geodesic.test.ts, values from pyproj 3).
 */

/** WGS84 semi-major axis, metres. */
export const WGS84_A_M = 6378137;
/** WGS84 flattening. */
export const WGS84_F = 1 / 298.257223563;
const B_M = WGS84_A_M * (1 - WGS84_F);
const RAD = Math.PI / 180;

/**
 * Geodesic distance in metres between two points on WGS84 (Vincenty inverse).
 * @param lon1Deg longitude of the first point, degrees
 * @param lat1Deg latitude of the first point, degrees
 * @param lon2Deg longitude of the second point, degrees
 * @param lat2Deg latitude of the second point, degrees
 * @returns metres; NaN when the iteration does not converge (nearly antipodal points only)
 */
export function geodesicDistanceM(lon1Deg: number, lat1Deg: number, lon2Deg: number, lat2Deg: number): number {
  const f = WGS84_F;
  const L = (lon2Deg - lon1Deg) * RAD;
  const U1 = Math.atan((1 - f) * Math.tan(lat1Deg * RAD));
  const U2 = Math.atan((1 - f) * Math.tan(lat2Deg * RAD));
  const sinU1 = Math.sin(U1), cosU1 = Math.cos(U1), sinU2 = Math.sin(U2), cosU2 = Math.cos(U2);
  let lambda = L;
  for (let it = 0; it < 200; it++) {
    const sinL = Math.sin(lambda), cosL = Math.cos(lambda);
    const t1 = cosU2 * sinL, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosL;
    const sinSigma = Math.sqrt(t1 * t1 + t2 * t2);
    if (sinSigma === 0) return 0;
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinL) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha !== 0 ? cosSigma - (2 * sinU1 * sinU2) / cos2Alpha : 0;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const prev = lambda;
    lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - prev) < 1e-13) {
      const u2 = (cos2Alpha * (WGS84_A_M * WGS84_A_M - B_M * B_M)) / (B_M * B_M);
      const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
      const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
      const dSigma = B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
      return B_M * A * (sigma - dSigma);
    }
  }
  return NaN;
}

/** Step lengths of the 8- and 16-neighbour grid, metres, per row (north row first). */
export interface RowSteps {
  /** East-west step between two cell centres of row r. */
  ewM: Float64Array;
  /** North-south step between the centres of row r and row r + 1 (length height - 1). */
  nsM: Float64Array;
  /** Diagonal step between row r and row r + 1, one column apart (length height - 1). */
  diagM: Float64Array;
  /** Knight's move between row r and row r + 2, one column apart (length height - 2; 16 neighbours). */
  knightNsM?: Float64Array;
  /** Knight's move between row r and row r + 1, two columns apart (length height - 1; 16 neighbours). */
  knightEwM?: Float64Array;
}

/**
 * Geodesic step lengths between neighbouring cell centres of a cell-registered
 * latitude/longitude grid, per row: they depend on latitude only. Knight's moves (two cells
 * one way, one the other) are included for 16-neighbour travel.
 * @param rowLatDeg latitude of each row's cell centres, degrees, north row first
 * @param cellSizeDeg cell size, degrees (the same in longitude and latitude)
 */
export function rowSteps(rowLatDeg: ArrayLike<number>, cellSizeDeg: number): RowSteps {
  const h = rowLatDeg.length;
  const ewM = new Float64Array(h);
  const nsM = new Float64Array(Math.max(0, h - 1));
  const diagM = new Float64Array(Math.max(0, h - 1));
  const knightNsM = new Float64Array(Math.max(0, h - 2));
  const knightEwM = new Float64Array(Math.max(0, h - 1));
  for (let r = 0; r < h; r++) {
    const lat = rowLatDeg[r];
    ewM[r] = geodesicDistanceM(0, lat, cellSizeDeg, lat);
    if (r + 1 < h) {
      nsM[r] = geodesicDistanceM(0, lat, 0, rowLatDeg[r + 1]);
      diagM[r] = geodesicDistanceM(0, lat, cellSizeDeg, rowLatDeg[r + 1]);
      knightEwM[r] = geodesicDistanceM(0, lat, 2 * cellSizeDeg, rowLatDeg[r + 1]);
    }
    if (r + 2 < h) knightNsM[r] = geodesicDistanceM(0, lat, cellSizeDeg, rowLatDeg[r + 2]);
  }
  return { ewM, nsM, diagM, knightNsM, knightEwM };
}
