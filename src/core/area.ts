/**
 * Geodesic cell areas on the WGS84 ellipsoid (the formula of the bundle's AREA_TOTAL layer),
 * shared by the histogram panel and the catchment bands.
 */
import { CELL_SIZE_DEG, GLOBAL_HEIGHT } from './grid';

/** WGS84 semi-major axis, metres. */
const WGS84_A = 6378137;
/** WGS84 flattening. */
const WGS84_F = 1 / 298.257223563;
const E2 = WGS84_F * (2 - WGS84_F);
const E = Math.sqrt(E2);

/** Snyder (1987) eq. 3-12: q(φ) of the WGS84 ellipsoid, φ in degrees. */
function authalicQ(latDeg: number): number {
  const s = Math.sin((latDeg * Math.PI) / 180);
  return (1 - E2) * (s / (1 - E2 * s * s) - (1 / (2 * E)) * Math.log((1 - E * s) / (1 + E * s)));
}

/**
 * Exact area in km² of a quadrangle of the WGS84 ellipsoid between the parallels `latNorth`
 * and `latSouth` (degrees) and `dlon` degrees of longitude: A = (a² / 2) · Δλ · (q(φn) − q(φs))
 * (Snyder 1987, Map Projections: A Working Manual, eqs. 3-11 and 3-12), the formula of the
 * bundle's AREA_TOTAL layer (about 85.8 km² for a 5′ cell at the equator, 70.4 km² at 35° S).
 */
export function quadAreaKm2(latNorth: number, latSouth: number, dlon: number): number {
  return (0.5 * WGS84_A * WGS84_A * ((dlon * Math.PI) / 180) * (authalicQ(latNorth) - authalicQ(latSouth))) / 1e6;
}

/**
 * Area in km² of the 5′ cell in global CELL5M row `row` (0 touches 90° N), from its latitude.
 * @throws nothing; rows outside 0..2159 give NaN
 */
export function cellAreaKm2(row: number): number {
  if (!(row >= 0 && row < GLOBAL_HEIGHT)) return NaN;
  return quadAreaKm2(90 - row * CELL_SIZE_DEG, 90 - (row + 1) * CELL_SIZE_DEG, CELL_SIZE_DEG);
}

