"""Compute every indicator of the bundle on SSA_GRID from the verified sources.

All arrays are (HEIGHT, WIDTH) = (756, 1080), row 0 at 28N, column 0 at 26W. Functions raise
BuildError with a clear message when a source is missing or malformed.
"""
from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass, field

import numpy as np
from osgeo import gdal, ogr, osr
from scipy.io import netcdf_file
from scipy.spatial import cKDTree

import geo
from cities import read_places

gdal.UseExceptions()
ogr.UseExceptions()


class BuildError(Exception):
    """A source is missing or malformed, or a computed result fails a sanity check."""


def need(cond: bool, msg: str) -> None:
    """Raise BuildError(msg) unless cond."""
    if not cond:
        raise BuildError(msg)


# ---------------------------------------------------------------------------------------------
# Countries and admin-1 units
# ---------------------------------------------------------------------------------------------

#: Natural Earth adm0_a3 codes that are not ISO 3166-1 alpha-3, mapped to the ISO country whose
#: territory they are in ISO 3166 terms (SDS: South Sudan; SOL: Somaliland, part of Somalia).
NE_TO_ISO = {'SDS': 'SSD', 'SOL': 'SOM'}
ISO_CODE_RE = re.compile(r'^[A-Z]{2}-[A-Z0-9]{1,3}$')


@dataclass
class Country:
    """One SSA country: ISO3, ISO2, M49 numeric, English name, UN M49 region code ('' = Sudan)."""

    iso3: str
    iso2: str
    m49: str
    name: str
    region: str
    value: int = 0


@dataclass
class Unit:
    """One admin-1 unit of Natural Earth, with its raster value and labels."""

    value: int
    iso3: str
    code: str
    name: str
    ne_name: str
    ne_adm0: str
    ne_adm1_code: str
    ne_iso_3166_2: str
    ne_type: str
    geometry_wkb: bytes = field(repr=False, default=b'')


def load_countries(path: str) -> list[Country]:
    """Read scripts/data/countries.csv (49 SSA countries); values 1..49 in ISO3 order."""
    with open(path, encoding='utf-8', newline='') as fh:
        rows = list(csv.DictReader(fh))
    out = [Country(r['iso3'], r['iso2'], r['m49'], r['name'], r['region']) for r in rows]
    out.sort(key=lambda c: c.iso3)
    need(len(out) == 49 and len({c.iso3 for c in out}) == 49, f'{path}: expected 49 distinct countries')
    for i, c in enumerate(out):
        c.value = i + 1
    return out


def load_units(admin1_path: str, iso2_of: dict[str, str]) -> list[Unit]:
    """Read Natural Earth admin-1 (GeoJSON) and keep the units of the SSA countries.

    Country: adm0_a3 mapped to ISO 3166-1 alpha-3 (NE_TO_ISO). Code: NE iso_3166_2 when it is a
    well-formed ISO 3166-2 code of the unit's country used by one unit only, else NE adm1_code. Name: NE name; a name
    used twice in one country gets its code appended in parentheses. Values 1..N in
    (iso3, code) order.
    """
    need(os.path.isfile(admin1_path), f'admin-1 source missing: {admin1_path}')
    ds = ogr.Open(admin1_path)
    need(ds is not None and ds.GetLayerCount() == 1, f'{admin1_path}: not a one-layer GeoJSON')
    lyr = ds.GetLayer(0)
    defn = lyr.GetLayerDefn()
    fields = {defn.GetFieldDefn(i).GetName() for i in range(defn.GetFieldCount())}
    for f in ('adm0_a3', 'adm1_code', 'iso_3166_2', 'name', 'type_en'):
        need(f in fields, f'{admin1_path}: field {f} missing')
    raw = []
    for feat in lyr:
        a3 = feat.GetField('adm0_a3')
        iso3 = NE_TO_ISO.get(a3, a3)
        if iso3 not in iso2_of:
            continue
        g = feat.GetGeometryRef()
        need(g is not None and not g.IsEmpty(), f"admin-1 unit {feat.GetField('adm1_code')} has no geometry")
        raw.append(dict(iso3=iso3, adm0=a3, adm1_code=feat.GetField('adm1_code'),
                        iso2=feat.GetField('iso_3166_2') or '', name=(feat.GetField('name') or '').strip(),
                        type=feat.GetField('type_en') or '', wkb=bytes(g.ExportToWkb())))
    need(len(raw) > 500, f'{admin1_path}: only {len(raw)} SSA admin-1 units found')
    iso_count: dict[str, int] = {}
    for r in raw:
        iso_count[r['iso2']] = iso_count.get(r['iso2'], 0) + 1
    codes = set()
    for r in raw:
        ok = ISO_CODE_RE.match(r['iso2']) and iso_count[r['iso2']] == 1 and r['iso2'][:2] == iso2_of[r['iso3']]
        r['code'] = r['iso2'] if ok else r['adm1_code']
        need(bool(r['code']) and r['code'] not in codes, f"admin-1 code {r['code']!r} empty or duplicated")
        need(bool(r['name']), f"admin-1 unit {r['code']} has no name")
        codes.add(r['code'])
    name_count: dict[tuple[str, str], int] = {}
    for r in raw:
        k = (r['iso3'], r['name'])
        name_count[k] = name_count.get(k, 0) + 1
    raw.sort(key=lambda r: (r['iso3'], r['code']))
    units = []
    for i, r in enumerate(raw):
        label = r['name'] if name_count[(r['iso3'], r['name'])] == 1 else f"{r['name']} ({r['code']})"
        units.append(Unit(i + 1, r['iso3'], r['code'], label, r['name'], r['adm0'], r['adm1_code'],
                          r['iso2'], r['type'], r['wkb']))
    need(len(units) < 65535, 'too many admin-1 units for UInt16')
    return units


def rasterize_units(units: list[Unit], work: str) -> np.ndarray:
    """Burn unit values into a 1/120-degree UInt16 raster of the window (0 = no unit).

    gdal_rasterize semantics (a sub-cell takes a polygon's value when its centre is inside).
    """
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    path = os.path.join(work, 'units.gpkg')
    if os.path.exists(path):
        os.remove(path)
    ds = ogr.GetDriverByName('GPKG').CreateDataSource(path)
    lyr = ds.CreateLayer('units', srs, ogr.wkbMultiPolygon)
    lyr.CreateField(ogr.FieldDefn('uid', ogr.OFTInteger))
    lyr.StartTransaction()
    for u in units:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetField('uid', u.value)
        f.SetGeometry(ogr.ForceToMultiPolygon(ogr.CreateGeometryFromWkb(u.geometry_wkb)))
        lyr.CreateFeature(f)
    lyr.CommitTransaction()
    ds = None
    sub = geo.SUB
    out = gdal.GetDriverByName('MEM').Create('', geo.WIDTH * sub, geo.HEIGHT * sub, 1, gdal.GDT_UInt16)
    out.SetGeoTransform((geo.XMIN, geo.RES / sub, 0.0, geo.YMAX, 0.0, -geo.RES / sub))
    out.SetProjection(srs.ExportToWkt())
    gdal.Rasterize(out, path, layers=['units'], attribute='uid')  # MEM starts at 0
    arr = out.GetRasterBand(1).ReadAsArray()
    need(arr.shape == (geo.HEIGHT * sub, geo.WIDTH * sub), 'rasterized units have the wrong shape')
    return arr


def read_gshhg_mask(path: str) -> np.ndarray:
    """Read the GMT grdlandmask output (30 arc-second, pixel registered; 0 ocean, 1 land, 2 lake)."""
    need(os.path.isfile(path), f'GSHHG mask missing: {path}')
    ds = gdal.Open(path)
    need(ds.RasterXSize == geo.WIDTH * geo.SUB and ds.RasterYSize == geo.HEIGHT * geo.SUB,
         f'{path}: size {ds.RasterXSize}x{ds.RasterYSize}')
    gt = ds.GetGeoTransform()
    exp = (geo.XMIN, geo.RES / geo.SUB, 0.0, geo.YMAX, 0.0, -geo.RES / geo.SUB)
    need(all(abs(a - b) < 1e-9 for a, b in zip(gt, exp)), f'{path}: geotransform {gt} is not {exp}')
    arr = ds.GetRasterBand(1).ReadAsArray().astype(np.uint8)
    need(set(np.unique(arr).tolist()) <= {0, 1, 2}, f'{path}: unexpected mask values')
    need((arr == 1).mean() > 0.2 and (arr == 2).any(), f'{path}: implausible land / lake shares')
    return arr


def assign_cells(units_sub: np.ndarray, mask_sub: np.ndarray) -> np.ndarray:
    """Cell -> unit value by majority of its 10 x 10 sub-cells (0 = no unit).

    Counted sub-cells: those inside a unit and not ocean in GSHHG (land or lake); when a cell has
    none, every sub-cell inside a unit counts (so small islands that GSHHG and Natural Earth
    draw slightly apart still get their cells). Ties go to the smallest unit value.
    """
    sub = geo.SUB
    h, w = geo.HEIGHT, geo.WIDTH
    u = units_sub.reshape(h, sub, w, sub).transpose(0, 2, 1, 3).reshape(h * w, sub * sub)
    m = mask_sub.reshape(h, sub, w, sub).transpose(0, 2, 1, 3).reshape(h * w, sub * sub)
    elig = np.where(m > 0, u, 0)
    has_elig = (elig > 0).any(axis=1)
    cand = np.where(has_elig[:, None], elig, u)
    big = np.iinfo(np.uint16).max
    cmin = np.where(cand > 0, cand, big).min(axis=1)
    cmax = cand.max(axis=1)
    out = np.where(cmax > 0, cmin, 0).astype(np.int64)
    mixed = np.nonzero((cmax > 0) & (cmin != cmax))[0]
    for i in mixed:
        vals = cand[i][cand[i] > 0]
        bc = np.bincount(vals)
        out[i] = int(np.argmax(bc))  # first maximum = smallest value
    return out.reshape(h, w)


# ---------------------------------------------------------------------------------------------
# Terrain from ETOPO5
# ---------------------------------------------------------------------------------------------

# Lowest land surface in Africa: Lake Assal (Djibouti), about 155 m below sea level. No land cell
# of the region can lie lower, so an ETOPO5 value below it is sea floor.
LOWEST_LAND_M = -155.0

# Cases of the ELEVATION cell rule (etopo5_cells), as coded in the returned case array.
ELEV_ALL_LAND, ELEV_SOME_LAND, ELEV_SHALLOWEST, ELEV_NO_DATA = 1, 2, 3, 4


def etopo5_cells(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Cell elevation (m) and rule case on the window padded by one cell each side: (HEIGHT+2, WIDTH+2).

    ETOPO5 is point registered: node (i, j) sits at lon i/12 (0..360) and lat -90 + j/12. A cell's
    corners are nodes. ETOPO5 carries sea-floor depths, so a plain corner mean mixes land heights
    with bathymetry on coasts. The cell value is
      ELEV_ALL_LAND   all 4 corners >= 0 m: their mean (= bilinear interpolation at the centre);
      ELEV_SOME_LAND  1-3 corners >= 0 m: the mean of those corners (the negative ones are left out);
      ELEV_SHALLOWEST all 4 corners < 0 m, the highest >= LOWEST_LAND_M: the highest corner (ETOPO5
                      cannot resolve the land; real depressions stay negative where ETOPO5 has them);
      ELEV_NO_DATA    all 4 corners < LOWEST_LAND_M: NaN. ETOPO5 has only sea floor there, so the
                      elevation of any land in the cell is unknown at this resolution; no value is
                      made up for it (the caller decides how such cells enter neighbours' slopes).
    Longitudes are wrapped: node index = round(lon * 12) mod 4320.
    """
    need(os.path.isfile(path), f'ETOPO5 missing: {path}')
    f = netcdf_file(path, 'r', mmap=False)
    try:
        need('ROSE' in f.variables, f'{path}: variable ROSE missing')
        x = np.array(f.variables['ETOPO05_X'][:], dtype=np.float64)
        y = np.array(f.variables['ETOPO05_Y'][:], dtype=np.float64)
        z = np.array(f.variables['ROSE'][:], dtype=np.float64)
    finally:
        f.close()
    need(z.shape == (2161, 4320) and x.shape == (4320,) and y.shape == (2161,), f'{path}: unexpected shape {z.shape}')
    # Y is exact; X carries float32 drift (last value 359.92 for 359.9167): check it is the 1/12 lattice.
    need(np.allclose(y, -90.0 + np.arange(2161) / 12.0, atol=1e-6), f'{path}: latitudes are not -90..90 by 1/12')
    need(abs(x[0]) < 1e-9 and np.allclose(x, np.arange(4320) / 12.0, atol=0.01), f'{path}: longitudes are not 0..360 by 1/12')
    need(np.isfinite(z).all() and np.abs(z).max() < 12000, f'{path}: elevations out of range')
    need(bool((z == np.round(z)).all()), f'{path}: elevations are not whole metres')
    rows = np.arange(-1, geo.HEIGHT + 1)
    cols = np.arange(-1, geo.WIDTH + 1)
    j_n = (geo.YMAX + 90) * 12 - rows  # node row of each cell's north edge
    j_s = j_n - 1
    i_w = (geo.XMIN * 12 + cols) % 4320
    i_e = (i_w + 1) % 4320
    corners = np.stack([z[np.ix_(j_n, i_w)], z[np.ix_(j_n, i_e)], z[np.ix_(j_s, i_w)], z[np.ix_(j_s, i_e)]])
    land = corners >= 0
    n_land = land.sum(axis=0)
    # Sums of whole metres are exact in float64, so the result does not depend on summation order.
    mean_land = np.where(land, corners, 0.0).sum(axis=0) / np.maximum(n_land, 1)
    top = corners.max(axis=0)
    case = np.where(n_land == 4, ELEV_ALL_LAND, np.where(n_land > 0, ELEV_SOME_LAND,
                    np.where(top >= LOWEST_LAND_M, ELEV_SHALLOWEST, ELEV_NO_DATA)))
    elev = np.where(n_land > 0, mean_land, np.where(top >= LOWEST_LAND_M, top, np.nan))
    return elev, case


def slope_tri(zp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Slope (degrees, Horn 1981) and TRI (m, Riley et al. 1999) of the inner cells of a padded grid.

    Horn: dz/dx = ((c + 2f + i) - (a + 2d + g)) / (8 dx), dz/dy = ((a + 2b + c) - (g + 2h + i)) / (8 dy)
    over the 3 x 3 window a b c / d e f / g h i (north row first), with dx the east-west cell
    width and dy the north-south cell height (m) on the WGS84 ellipsoid at the row's latitude;
    slope = atan(sqrt(dzdx^2 + dzdy^2)). TRI = sqrt(sum over the 8 neighbours of (z_n - z_e)^2).
    """
    a, b, c = zp[:-2, :-2], zp[:-2, 1:-1], zp[:-2, 2:]
    d, e, f = zp[1:-1, :-2], zp[1:-1, 1:-1], zp[1:-1, 2:]
    g, h, i = zp[2:, :-2], zp[2:, 1:-1], zp[2:, 2:]
    lat = geo.row_centres_deg()[:, None]
    dx = geo.parallel_arc_m(lat, geo.RES)
    dy = geo.meridian_arc_m(lat, geo.RES)
    dzdx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8.0 * dx)
    dzdy = ((a + 2 * b + c) - (g + 2 * h + i)) / (8.0 * dy)
    slope = np.degrees(np.arctan(np.hypot(dzdx, dzdy)))
    tri = np.sqrt(sum((n - e) ** 2 for n in (a, b, c, d, f, g, h, i)))
    return slope, tri


# ---------------------------------------------------------------------------------------------
# Areas, coast
# ---------------------------------------------------------------------------------------------

def areas(mask_sub: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """AREA_TOTAL, AREA_LAND, AREA_WATER (km2) per cell.

    Total: exact ellipsoidal area of the cell quadrangle. Land / water: sum of the exact areas of
    the 1/120-degree sub-cells that GSHHG marks land (levels 1 and 3) / lake (levels 2 and 4).
    """
    edges = geo.row_edges_deg()
    total_row = geo.band_area_km2(edges[:-1], edges[1:], geo.RES)
    total = np.repeat(total_row[:, None], geo.WIDTH, axis=1)
    sedges = geo.row_edges_deg(sub=geo.SUB)
    sub_row = geo.band_area_km2(sedges[:-1], sedges[1:], geo.RES / geo.SUB)[:, None]
    land = geo.block_sum((mask_sub == 1) * sub_row)
    water = geo.block_sum((mask_sub == 2) * sub_row)
    need(np.allclose(geo.block_sum(np.broadcast_to(sub_row, mask_sub.shape)), total, rtol=1e-9),
         'sub-cell areas do not add up to cell areas')
    return total, land, water


def read_coast(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of the GSHHG level-1 shoreline segments dumped by `gmt coast -M`, densified so that
    consecutive vertices are at most 0.002 degrees (~0.2 km) apart."""
    need(os.path.isfile(path), f'coast dump missing: {path}')
    lons: list[np.ndarray] = []
    lats: list[np.ndarray] = []
    seg: list[tuple[float, float]] = []

    def flush() -> None:
        if len(seg) >= 1:
            p = np.array(seg)
            if len(p) > 1:
                dd = np.hypot(np.diff(p[:, 0]), np.diff(p[:, 1]))
                n = np.maximum(1, np.ceil(dd / 0.002)).astype(int)
                for k in range(len(p) - 1):
                    t = np.arange(n[k]) / n[k]
                    lons.append(p[k, 0] + t * (p[k + 1, 0] - p[k, 0]))
                    lats.append(p[k, 1] + t * (p[k + 1, 1] - p[k, 1]))
            lons.append(p[-1:, 0])
            lats.append(p[-1:, 1])
        seg.clear()

    nseg = 0
    with open(path, encoding='ascii') as fh:
        for line in fh:
            if line.startswith('>'):
                flush()
                nseg += 1
                continue
            parts = line.split()
            if len(parts) >= 2:
                seg.append((float(parts[0]), float(parts[1])))
    flush()
    need(nseg > 1000, f'{path}: only {nseg} shoreline segments')
    return np.concatenate(lons), np.concatenate(lats)


# ---------------------------------------------------------------------------------------------
# Places, country figures
# ---------------------------------------------------------------------------------------------

#: GeoNames feature codes of places that are no longer populated: abandoned, historical, destroyed.
GONE_FEATURES = {'PPLQ', 'PPLH', 'PPLW'}


def load_places(path: str) -> np.ndarray:
    """Places as a structured array (lon, lat, pop), without abandoned / historical / destroyed ones."""
    need(os.path.isfile(path), f'cities.pbf missing: {path}')
    try:
        ps = [(p.lon, p.lat, p.population) for p in read_places(path) if p.feature_code not in GONE_FEATURES]
    except (ValueError, IndexError, UnicodeDecodeError) as exc:
        raise BuildError(f'{path}: malformed ({exc})') from exc
    need(len(ps) > 100000, f'{path}: only {len(ps)} places')
    a = np.array(ps, dtype=[('lon', 'f8'), ('lat', 'f8'), ('pop', 'i8')])
    need((np.abs(a['lat']) <= 90).all() and (np.abs(a['lon']) <= 180).all(), f'{path}: coordinates out of range')
    return a


def read_spdata_world(path: str) -> dict[str, dict[str, float | None]]:
    """spData world.gpkg attributes by ISO2: pop, lifeExp, gdpPercap (None when missing)."""
    need(os.path.isfile(path), f'spData world missing: {path}')
    ds = ogr.Open(path)
    lyr = ds.GetLayerByName('world')
    need(lyr is not None, f'{path}: layer world missing')
    out: dict[str, dict[str, float | None]] = {}
    for feat in lyr:
        iso2 = feat.GetField('iso_a2')
        if not iso2:
            continue
        rec = {}
        for k in ('pop', 'lifeExp', 'gdpPercap'):
            rec[k] = feat.GetField(k) if feat.IsFieldSetAndNotNull(k) else None
        rec['name_long'] = feat.GetField('name_long')
        out[iso2] = rec
    need(len(out) > 150, f'{path}: only {len(out)} countries')
    return out


def read_countries50(path: str) -> list[dict[str, str]]:
    """countries50 attributes exported by export_countries50.R."""
    need(os.path.isfile(path), f'countries50 export missing: {path}')
    with open(path, encoding='utf-8', newline='') as fh:
        rows = list(csv.DictReader(fh))
    need(len(rows) > 200 and 'income_grp' in rows[0], f'{path}: malformed')
    return rows


def apportion(total: int, weights: np.ndarray) -> np.ndarray:
    """Integers proportional to weights summing exactly to total (largest remainder, Hamilton);
    ties in the remainder go to the lower index."""
    w = np.asarray(weights, dtype=np.float64)
    need(w.sum() > 0, 'apportion: zero weights')
    quota = total * w / w.sum()
    base = np.floor(quota).astype(np.int64)
    rest = int(total - base.sum())
    if rest > 0:
        frac = quota - base
        order = np.lexsort((np.arange(len(w)), -frac))
        base[order[:rest]] += 1
    return base


def parse_numbered(label: str) -> tuple[int, str]:
    """'5. Low income' -> (5, 'Low income')."""
    m = re.match(r'^\s*(\d+)\.\s*(.+?)\s*$', label or '')
    if not m:
        raise BuildError(f'unexpected class label {label!r}')
    return int(m.group(1)), m.group(2)


def places_in_cells(places: np.ndarray, inb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PLACES_N and PLACES_POP: count / summed population of places of 1000+ people per cell."""
    p = places[places['pop'] >= 1000]
    col = np.floor((p['lon'] - geo.XMIN) / geo.RES).astype(np.int64)
    row = np.floor((geo.YMAX - p['lat']) / geo.RES).astype(np.int64)
    ok = (col >= 0) & (col < geo.WIDTH) & (row >= 0) & (row < geo.HEIGHT)
    idx = row[ok] * geo.WIDTH + col[ok]
    n = np.bincount(idx, minlength=geo.WIDTH * geo.HEIGHT).reshape(geo.HEIGHT, geo.WIDTH)
    pop = np.bincount(idx, weights=p['pop'][ok].astype(np.float64), minlength=geo.WIDTH * geo.HEIGHT)
    return n.astype(np.float64), pop.reshape(geo.HEIGHT, geo.WIDTH)


def nearest_km(lon_pts: np.ndarray, lat_pts: np.ndarray, inb: np.ndarray) -> np.ndarray:
    """Great-circle distance (km) from each in-bundle cell centre to the nearest point."""
    tree = cKDTree(geo.unit_vectors(lon_pts, lat_pts))
    rr, cc = np.nonzero(inb)
    q = geo.unit_vectors(geo.col_centres_deg()[cc], geo.row_centres_deg()[rr])
    chord, _ = tree.query(q, k=1)
    out = np.full(inb.shape, np.nan)
    out[rr, cc] = geo.chord_to_km(chord)
    return out


def load_json(path: str) -> dict:
    """Read a JSON file."""
    with open(path, encoding='utf-8') as fh:
        return json.load(fh)


def round_to(a: np.ndarray, dec: int) -> np.ndarray:
    """Round half away from zero to dec decimals (deterministic, NaN kept)."""
    f = 10.0 ** dec
    return np.sign(a) * np.floor(np.abs(a) * f + 0.5) / f

