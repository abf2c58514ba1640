"""Lakes and major rivers of the app's basemap: ``basemap/lakes.geojson`` and ``basemap/rivers.geojson``.

Both from GSHHG 2.3.7 (high resolution) through GMT, LGPL-3.0-or-later, clipped to the bundle window
(``geo.XMIN``..``geo.XMAX``, ``geo.YMIN``..``geo.YMAX``, degrees, EPSG:4326):

- lakes: ``gmt grdlandmask -Dh -N0/0/1/0/1`` marks the GSHHG lake cells (level 2; islands in lakes are
  not lake, ponds on those islands are) at 30 arc-seconds, pixel registered; the lake cells are
  polygonized (GDAL Polygonize, 4-connected), lakes of at least :data:`MIN_LAKE_KM2` km2 kept (area of the
  30-second cells, spherical Earth of radius 6371.0088 km), simplified by :data:`LAKE_TOLERANCE_DEG`
  degrees (OGR SimplifyPreserveTopology). Properties: ``areaKm2`` (the lake's area at 30 seconds, km2,
  rounded to 1 km2).
- rivers: WDBII rivers of GSHHG, ``gmt coast -Dh -M -I1`` (class 1, permanent major rivers) and ``-I2``
  (class 2, additional major rivers), pieces joined end to end (``gmt connect``), clipped to the window,
  simplified by :data:`RIVER_TOLERANCE_DEG` degrees. Properties: ``class`` (1 or 2).

Coordinates are written with 3 decimals (about 100 m), RFC 7946 GeoJSON.

The data build calls :func:`write_water` before the manifest is written. To (re)make just these two
files of the committed bundle without the whole build::

    python3 scripts/data/water.py

which writes them to ``public/data/basemap/`` and updates their entries (bytes, sha256) in
``public/data/manifest.json`` (the bundle README's rows for them are static text of readme.py).
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile

from osgeo import gdal, ogr, osr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import geo  # noqa: E402

gdal.UseExceptions()

#: Smallest lake kept (km2).
MIN_LAKE_KM2 = 150
#: Simplification tolerance of lake outlines (degrees).
LAKE_TOLERANCE_DEG = 0.01
#: Simplification tolerance of river lines (degrees).
RIVER_TOLERANCE_DEG = 0.02
#: WDBII river classes kept (1 permanent major rivers, 2 additional major rivers).
RIVER_CLASSES = (1, 2)
#: Mean Earth radius (km), IUGG.
EARTH_RADIUS_KM = 6371.0088
#: Lake raster resolution (degrees): 30 arc-seconds.
LAKE_RES_DEG = 1 / 120

#: Rows of the bundle README's file table (readme.py).
README_ROWS = [
    f'| `basemap/lakes.geojson` | GSHHG 2.3.7 lakes (level 2, high resolution) of at least {MIN_LAKE_KM2} km2 in the window, '
    f'from the 30 arc-second lake mask of `gmt grdlandmask` polygonized with GDAL and simplified ({LAKE_TOLERANCE_DEG} degree), '
    'property `areaKm2`; drawn over the indicator layer in the app; LGPL-3.0-or-later; written by `scripts/data/water.py` |',
    '| `basemap/rivers.geojson` | GSHHG 2.3.7 WDBII rivers of classes 1 (permanent major) and 2 (additional major) in the window '
    f'(`gmt coast -M -I1`, `-I2`), joined with `gmt connect`, simplified ({RIVER_TOLERANCE_DEG} degree), property `class`; '
    'drawn over the indicator layer in the app; LGPL-3.0-or-later; written by `scripts/data/water.py` |',
]


def _window_wkt() -> str:
    x0, y0, x1, y1 = geo.XMIN, geo.YMIN, geo.XMAX, geo.YMAX
    return f'POLYGON(({x0} {y0},{x1} {y0},{x1} {y1},{x0} {y1},{x0} {y0}))'


def _region() -> str:
    return f'-R{geo.XMIN:g}/{geo.XMAX:g}/{geo.YMIN:g}/{geo.YMAX:g}'


def _srs() -> osr.SpatialReference:
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def _ring_area_km2(ring: ogr.Geometry) -> float:
    """Area of a lon/lat ring on the sphere (km2): sum of trapezoids in (lon, sin lat), exact for the
    axis-parallel edges of raster cells."""
    pts = ring.GetPoints()
    s = 0.0
    for (x0, y0, *_), (x1, y1, *_) in zip(pts, pts[1:]):
        s += math.radians(x1 - x0) * (math.sin(math.radians(y0)) + math.sin(math.radians(y1))) / 2
    return abs(s) * EARTH_RADIUS_KM ** 2


def _polygon_area_km2(g: ogr.Geometry) -> float:
    a = _ring_area_km2(g.GetGeometryRef(0))
    for i in range(1, g.GetGeometryCount()):
        a -= _ring_area_km2(g.GetGeometryRef(i))
    return a


def _write(mem: gdal.Dataset, path: str) -> None:
    gdal.VectorTranslate(path, mem, format='GeoJSON',
                         layerCreationOptions=['COORDINATE_PRECISION=3', 'RFC7946=YES', 'WRITE_NAME=NO'])


def write_lakes(work: str, path: str) -> int:
    """Write lakes.geojson; returns the number of lakes. Raises RuntimeError when gmt fails."""
    nc = os.path.join(work, 'lakes.nc')
    subprocess.run(['gmt', 'grdlandmask', _region(), '-I30s', '-r', '-Dh', '-N0/0/1/0/1', f'-G{nc}=nb'],
                   check=True, cwd=work)
    ras = gdal.Open(nc)
    band = ras.GetRasterBand(1)
    poly = gdal.GetDriverByName('Memory').Create('p', 0, 0, 0, gdal.GDT_Unknown)
    pl = poly.CreateLayer('p', _srs(), ogr.wkbPolygon)
    pl.CreateField(ogr.FieldDefn('v', ogr.OFTInteger))
    gdal.Polygonize(band, band, pl, 0, [])
    lakes = []
    for f in pl:
        g = f.GetGeometryRef()
        a = _polygon_area_km2(g)
        if a >= MIN_LAKE_KM2:
            lakes.append((round(a), g.Clone()))
    lakes.sort(key=lambda t: (-t[0], t[1].GetEnvelope()))
    mem = gdal.GetDriverByName('Memory').Create('lakes', 0, 0, 0, gdal.GDT_Unknown)
    ml = mem.CreateLayer('lakes', _srs(), ogr.wkbMultiPolygon)
    ml.CreateField(ogr.FieldDefn('areaKm2', ogr.OFTInteger))
    for a, g in lakes:
        s = g.SimplifyPreserveTopology(LAKE_TOLERANCE_DEG)
        if s is None or s.IsEmpty():
            continue
        nf = ogr.Feature(ml.GetLayerDefn())
        nf.SetField('areaKm2', a)
        nf.SetGeometry(ogr.ForceToMultiPolygon(s))
        ml.CreateFeature(nf)
    _write(mem, path)
    return len(lakes)


def _segments(text: str) -> list[list[tuple[float, float]]]:
    """Lines of a GMT multisegment ASCII table (segments start with '>')."""
    out: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    for line in text.splitlines():
        if line.startswith('>'):
            if len(cur) > 1:
                out.append(cur)
            cur = []
        elif line.strip() and not line.startswith('#'):
            x, y = line.split()[:2]
            cur.append((float(x), float(y)))
    if len(cur) > 1:
        out.append(cur)
    return out


def write_rivers(work: str, path: str) -> int:
    """Write rivers.geojson; returns the number of lines. Raises RuntimeError when gmt fails."""
    win = ogr.CreateGeometryFromWkt(_window_wkt())
    mem = gdal.GetDriverByName('Memory').Create('rivers', 0, 0, 0, gdal.GDT_Unknown)
    ml = mem.CreateLayer('rivers', _srs(), ogr.wkbMultiLineString)
    ml.CreateField(ogr.FieldDefn('class', ogr.OFTInteger))
    n = 0
    for cls in RIVER_CLASSES:
        raw = os.path.join(work, f'rivers{cls}.txt')
        with open(raw, 'w', encoding='ascii') as fh:
            subprocess.run(['gmt', 'coast', _region(), '-Dh', '-M', f'-I{cls}'], check=True, cwd=work, stdout=fh)
        joined = subprocess.run(['gmt', 'connect', raw, '-T0.0001'], check=True, cwd=work,
                                capture_output=True, text=True).stdout
        for seg in _segments(joined):
            line = ogr.Geometry(ogr.wkbLineString)
            for x, y in seg:
                line.AddPoint_2D(x, y)
            g = line.Intersection(win)
            if g is None or g.IsEmpty():
                continue
            g = g.SimplifyPreserveTopology(RIVER_TOLERANCE_DEG)
            if g is None or g.IsEmpty() or g.Length() < RIVER_TOLERANCE_DEG:
                continue
            nf = ogr.Feature(ml.GetLayerDefn())
            nf.SetField('class', cls)
            nf.SetGeometry(ogr.ForceToMultiLineString(g))
            ml.CreateFeature(nf)
            n += 1
    _write(mem, path)
    return n


def write_water(basemap_dir: str) -> tuple[int, int]:
    """Write lakes.geojson and rivers.geojson into ``basemap_dir``; returns (lakes, river lines)."""
    with tempfile.TemporaryDirectory() as work:
        lakes = write_lakes(work, os.path.join(basemap_dir, 'lakes.geojson'))
        rivers = write_rivers(work, os.path.join(basemap_dir, 'rivers.geojson'))
    return lakes, rivers


def main() -> None:
    """Write the committed bundle's lakes and rivers and their manifest entries."""
    from places import update_manifest  # noqa: E402
    root = os.path.dirname(os.path.dirname(HERE))
    bundle = os.path.join(root, 'public', 'data')
    lakes, rivers = write_water(os.path.join(bundle, 'basemap'))
    for rel in ('basemap/lakes.geojson', 'basemap/rivers.geojson'):
        update_manifest(bundle, rel)
    print(f'water: {lakes} lakes of {MIN_LAKE_KM2}+ km2 and {rivers} river lines written to public/data/basemap/')


if __name__ == '__main__':
    main()
