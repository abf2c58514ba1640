"""Independent travel times for tests/catchment (issues 19, 24): SciPy's csgraph.dijkstra over the
8-neighbour graph of a window of a friction COG read with GDAL, edge lengths from pyproj's
Geod(ellps='WGS84').inv between cell centres, edge cost = length x mean friction of the two cells.
With --k (16 neighbours) the knight's moves are added: length x mean friction of the four cells
the move touches (start, end, the two cells its line crosses), all four passable (GRASS r.cost -k).

Usage: python3 scipy_dijkstra.py <cog.tif> <col0> <row0> <width> <height> <limit_minutes> <lon,lat> [<lon,lat> ...]
  [--bench N]  (then times N dijkstra runs, graph built untimed, and prints seconds too)
  [--k]        (16 neighbours)
Prints JSON: {"minutes": [...row-major window, null unreachable or beyond the limit...],
  "source": [...index of the nearest source per cell, -1 none...], "seconds": ...}
"""
import json
import sys
import time

import numpy as np
from osgeo import gdal
from pyproj import Geod
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra


def build(path, c0, r0, w, h, knight=False):
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
    # right, down, down-right, down-left: each undirected edge once, added both ways;
    # knight's moves: (dr, dc, the two crossed cells as (dr, dc) offsets)
    moves = [(0, 1, None), (1, 0, None), (1, 1, None), (1, -1, None)]
    if knight:
        moves += [(2, 1, ((1, 0), (1, 1))), (2, -1, ((1, 0), (1, -1))), (1, 2, ((0, 1), (1, 1))), (1, -2, ((0, -1), (1, -1)))]
    ff = f.ravel()
    for dr, dc, via in moves:
        rr, cc = np.mgrid[0:h - dr, max(0, -dc):w - max(0, dc)]
        a = (rr * w + cc).ravel()
        b = ((rr + dr) * w + cc + dc).ravel()
        fa, fb = ff[a], ff[b]
        if via is None:
            mean = 0.5 * (fa + fb)
        else:
            fx = ff[((rr + via[0][0]) * w + cc + via[0][1]).ravel()]
            fy = ff[((rr + via[1][0]) * w + cc + via[1][1]).ravel()]
            mean = 0.25 * (fa + fb + fx + fy)
        ok = np.isfinite(mean)
        a, b, mean = a[ok], b[ok], mean[ok]
        la, lb = lat[a // w], lat[b // w]
        oa, ob = lon[a % w], lon[b % w]
        _, _, dist = geod.inv(oa, la, ob, lb)
        cost = dist * mean
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
    knight = '--k' in argv
    argv = [x for x in argv if x != '--k']
    bench = 0
    if '--bench' in argv:
        k = argv.index('--bench')
        bench = int(argv[k + 1])
        argv = argv[:k] + argv[k + 2:]
    path, c0, r0, w, h, limit = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), int(argv[4]), float(argv[5])
    g, f, gt = build(path, c0, r0, w, h, knight)
    src = sources_of(argv[6:], gt, c0, r0, w, h, f)
    lim = np.inf if limit < 0 else limit
    t0 = time.perf_counter()
    runs = max(1, bench)
    for _ in range(runs):
        d, _, near = dijkstra(g, directed=True, indices=src, min_only=True, limit=lim, return_predecessors=True)
    secs = (time.perf_counter() - t0) / runs
    out = {'seconds': secs, 'reached': int(np.isfinite(d).sum())}
    if not bench:
        out['minutes'] = [None if not np.isfinite(x) else float(x) for x in d]
        pos = {cell: k for k, cell in enumerate(src)}
        out['source'] = [pos.get(int(x), -1) for x in near]
    json.dump(out, sys.stdout)


main()
