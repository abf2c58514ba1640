"""Grid and geodesy helpers of the data build (pure numpy).

The grid is SSA_GRID of src/core/grid.ts: EPSG:4326, window [-26, -35, 64, 28] degrees,
1080 x 756 cells of exactly 1/12 degree, geotransform (-26, 1/12, 0, 28, 0, -1/12).
"""
from __future__ import annotations

import numpy as np

#: Grid window and cell size (degrees), width / height (cells), global offsets (cells).
XMIN, YMIN, XMAX, YMAX = -26, -35, 64, 28
RES = 1.0 / 12.0
WIDTH, HEIGHT = 1080, 756
COL_OFFSET, ROW_OFFSET = 1848, 744
GEOTRANSFORM = (float(XMIN), RES, 0.0, float(YMAX), 0.0, -RES)
#: Sub-cells per cell side for fractions and majority rules (1/120 degree sub-cells).
SUB = 10

#: WGS84 ellipsoid (EPSG:7030): semi-major axis (m) and flattening.
WGS84_A = 6378137.0
WGS84_F = 1.0 / 298.257223563
WGS84_E2 = WGS84_F * (2.0 - WGS84_F)
WGS84_E = np.sqrt(WGS84_E2)
#: IUGG mean Earth radius R1 (km), used for great-circle distances.
EARTH_MEAN_RADIUS_KM = 6371.0088

assert abs(XMIN + WIDTH * RES - XMAX) < 1e-9 and abs(YMAX - HEIGHT * RES - YMIN) < 1e-9


def row_edges_deg(n_rows: int = HEIGHT, sub: int = 1) -> np.ndarray:
    """Latitudes (degrees) of the n_rows*sub+1 row edges from north to south (exact lattice)."""
    k = np.arange(n_rows * sub + 1, dtype=np.float64)
    return YMAX - k / (12.0 * sub)


def row_centres_deg() -> np.ndarray:
    """Latitude (degrees) of the centre of each grid row, north first (odd multiples of 1/24)."""
    gr = np.arange(HEIGHT, dtype=np.float64) + ROW_OFFSET
    return 90.0 - (gr * 2.0 + 1.0) / 24.0


def col_centres_deg() -> np.ndarray:
    """Longitude (degrees) of the centre of each grid column, west first (odd multiples of 1/24)."""
    gc = np.arange(WIDTH, dtype=np.float64) + COL_OFFSET
    return (gc * 2.0 + 1.0) / 24.0 - 180.0


def authalic_q(lat_deg: np.ndarray) -> np.ndarray:
    """Snyder (1987) eq. 3-12: q(phi) of the ellipsoid, for the authalic latitude.

    q = (1 - e^2) [ sin(phi) / (1 - e^2 sin^2(phi)) - 1/(2e) ln((1 - e sin(phi)) / (1 + e sin(phi))) ]
    """
    s = np.sin(np.radians(lat_deg))
    e = WGS84_E
    return (1.0 - WGS84_E2) * (s / (1.0 - WGS84_E2 * s * s) - (1.0 / (2.0 * e)) * np.log((1.0 - e * s) / (1.0 + e * s)))


def band_area_km2(lat_north_deg: np.ndarray, lat_south_deg: np.ndarray, dlon_deg: float) -> np.ndarray:
    """Exact area (km2) on the WGS84 ellipsoid of a quadrangle between two parallels and
    dlon_deg of longitude: A = (a^2 / 2) * dlon * (q(north) - q(south)), which is
    R_q^2 * dlon * (sin(beta_n) - sin(beta_s)) with the authalic radius R_q^2 = a^2 q_p / 2 and
    authalic latitude sin(beta) = q / q_p (Snyder 1987, eqs. 3-11 and 3-12)."""
    a2 = WGS84_A * WGS84_A
    return 0.5 * a2 * np.radians(dlon_deg) * (authalic_q(lat_north_deg) - authalic_q(lat_south_deg)) / 1e6


def parallel_arc_m(lat_deg: np.ndarray, dlon_deg: float) -> np.ndarray:
    """East-west length (m) of dlon_deg of longitude along a parallel of the WGS84 ellipsoid:
    N(phi) cos(phi) dlon with the prime-vertical radius N = a / sqrt(1 - e^2 sin^2 phi)."""
    phi = np.radians(lat_deg)
    n = WGS84_A / np.sqrt(1.0 - WGS84_E2 * np.sin(phi) ** 2)
    return n * np.cos(phi) * np.radians(dlon_deg)


def meridian_arc_m(lat_deg: np.ndarray, dlat_deg: float) -> np.ndarray:
    """North-south length (m) of dlat_deg of latitude at phi on the WGS84 ellipsoid:
    M(phi) dlat with the meridian radius M = a (1 - e^2) / (1 - e^2 sin^2 phi)^(3/2)."""
    phi = np.radians(lat_deg)
    m = WGS84_A * (1.0 - WGS84_E2) / (1.0 - WGS84_E2 * np.sin(phi) ** 2) ** 1.5
    return m * np.radians(dlat_deg)


def unit_vectors(lon_deg: np.ndarray, lat_deg: np.ndarray) -> np.ndarray:
    """3-D unit vectors (n x 3) of points on the sphere, for chord-distance nearest-neighbour search."""
    lon = np.radians(np.asarray(lon_deg, dtype=np.float64))
    lat = np.radians(np.asarray(lat_deg, dtype=np.float64))
    c = np.cos(lat)
    return np.column_stack((c * np.cos(lon), c * np.sin(lon), np.sin(lat)))


def chord_to_km(chord: np.ndarray) -> np.ndarray:
    """Great-circle distance (km) on the mean-radius sphere from a unit-sphere chord length."""
    return 2.0 * EARTH_MEAN_RADIUS_KM * np.arcsin(np.clip(chord / 2.0, 0.0, 1.0))


def block_sum(a: np.ndarray, sub: int = SUB) -> np.ndarray:
    """Sum of sub x sub blocks of a (H*sub x W*sub) array -> (H x W)."""
    h, w = a.shape
    return a.reshape(h // sub, sub, w // sub, sub).sum(axis=(1, 3))
