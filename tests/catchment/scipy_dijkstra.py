"""Independent travel times for tests/catchment (issue 19): SciPy's csgraph.dijkstra over the
8-neighbour graph of a window of a friction COG read with GDAL, edge lengths from pyproj's
Geod(ellps='WGS84').inv between cell centres, edge cost = length x mean friction of the two cells.

Usage: python3 scipy_dijkstra.py <cog.tif> <col0> <row0> <width> <height> <limit_minutes> <lon,lat> [<lon,lat> ...]
  [--bench N]  (then times N dijkstra runs, graph built untimed, and prints seconds too)
Prints JSON: {"minutes": [...row-major window, null unreachable or beyond the limit...], "seconds": ...}
"""
import json
import sys
import time

import numpy as np
from osgeo import gdal
from pyproj import Geod
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra


def build(path, c0, r0, w, h):
    ds = gdal.Open(path)
    band = ds.GetRasterBand(1)
    nd = band.GetNoDataValue()
    f = band.ReadAsArray(c0, r0, w, h).astype(np.float64)
    if nd is not None:
        f[f == nd] = np.nan
    f[~(f >= 0)] = np.nan
    gt = ds.GetGeoTransform()
    lon = gt[0] + (c0 + np.arange(w) + 0.5) * gt[1]
    lat = gt[3] + (r0 + np.arange(h) + 0.5) * gt[5]
    geod = Geod(ellps='WGS84')
    rows, cols, data = [], [], []
    # right, down, down-right, down-left: each undirected edge once, added both ways
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        rr, cc = np.mgrid[0:h - dr, max(0, -dc):w - max(0, dc)]
        a = (rr * w + cc).ravel()
        b = ((rr + dr) * w + cc + dc).ravel()
        fa, fb = f.ravel()[a], f.ravel()[b]
        ok = np.isfinite(fa) & np.isfinite(fb)
        a, b, fa, fb = a[ok], b[ok], fa[ok], fb[ok]
        la, lb = lat[a // w], lat[b // w]
        oa, ob = lon[a % w], lon[b % w]
        _, _, dist = geod.inv(oa, la, ob, lb)
        cost = dist * 0.5 * (fa + fb)
        rows += [a, b]
        cols += [b, a]
        data += [cost, cost]
    n = w * h
    g = coo_matrix((np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)).tocsr()
    return g, f, gt


def sources_of(args, gt, c0, r0, w, h, f):
    out = []
    for s in args:
        lon, lat = (float(x) for x in s.split(','))
        c = int(np.floor((lon - gt[0]) / gt[1])) - c0
        r = int(np.floor((lat - gt[3]) / gt[5])) - r0
        assert 0 <= c < w and 0 <= r < h and np.isfinite(f[r, c]), f'source {s} outside the window or on no-data'
        out.append(r * w + c)
    return out


def main():
    argv = sys.argv[1:]
    bench = 0
    if '--bench' in argv:
        k = argv.index('--bench')
        bench = int(argv[k + 1])
        argv = argv[:k] + argv[k + 2:]
    path, c0, r0, w, h, limit = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), int(argv[4]), float(argv[5])
    g, f, gt = build(path, c0, r0, w, h)
    src = sources_of(argv[6:], gt, c0, r0, w, h, f)
    lim = np.inf if limit < 0 else limit
    t0 = time.perf_counter()
    runs = max(1, bench)
    for _ in range(runs):
        d = dijkstra(g, directed=True, indices=src, min_only=True, limit=lim)
    secs = (time.perf_counter() - t0) / runs
    out = {'seconds': secs, 'reached': int(np.isfinite(d).sum())}
    if not bench:
        out['minutes'] = [None if not np.isfinite(x) else float(x) for x in d]
    json.dump(out, sys.stdout)


main()
