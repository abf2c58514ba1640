"""Validate a built bundle folder before it replaces public/data/.

Checks: every catalog record complete and its COG present; every COG a valid COG
(osgeo_utils validate_cloud_optimized_geotiff), on the exact grid, with the record's data type
and no-data; class values all labelled; no-data outside the ISO3 mask in every layer, and inside it
only in PN14_* and where ELEVATION has no value (ELEV_ZONE, SLOPE, TRI follow ELEVATION exactly); the
manifest lists every file with the right size and sha256. Exits 2 with the list of failures.

Usage: python3 validate.py <bundle folder>
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import sys

import numpy as np
from osgeo import gdal
from osgeo_utils.samples.validate_cloud_optimized_geotiff import ValidateCloudOptimizedGeoTIFFException, validate

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog  # noqa: E402
import compute  # noqa: E402
import friction  # noqa: E402
import geo  # noqa: E402

gdal.UseExceptions()


def main() -> None:
    root = sys.argv[1]
    errs: list[str] = []
    with open(os.path.join(root, 'vi.csv'), encoding='utf-8', newline='') as fh:
        rdr = csv.DictReader(fh)
        if rdr.fieldnames != catalog.VI_FIELDS:
            errs.append(f'vi.csv header {rdr.fieldnames}')
        recs = list(rdr)
    if len(recs) < 20:
        errs.append(f'only {len(recs)} indicators')
    mask = None
    iso_ds = gdal.Open(os.path.join(root, 'cog', 'ISO3.tif'))
    mask = iso_ds.GetRasterBand(1).ReadAsArray() != 255
    # ELEVATION is no-data inside the mask where ETOPO5 has only sea floor at all 4 corners of a cell
    # (catalog.py, ELEVATION); ELEV_ZONE, SLOPE and TRI derive from it and must be no-data exactly there.
    elev_ds = gdal.Open(os.path.join(root, 'cog', 'ELEVATION.tif'))
    elev = elev_ds.GetRasterBand(1).ReadAsArray()
    elev_nd = mask & (elev == -9999)
    if (elev[mask & ~elev_nd] < compute.LOWEST_LAND_M).any():
        errs.append(f'ELEVATION: values below {compute.LOWEST_LAND_M:g} m, the lowest land of Africa')
    follows_elev = {'ELEVATION', 'ELEV_ZONE', 'SLOPE', 'TRI'}
    for r in recs:
        code = r['varCode']
        optional_empty = {'classTable'} if r['type'] == 'continuous' else {'unit'}
        if r['type'] == 'class' and not r['classBreaks']:
            optional_empty |= {'classBreaks', 'classLabels', 'classColors'}
        for k in catalog.VI_FIELDS:
            if not r[k].strip() and k not in optional_empty:
                errs.append(f'{code}: field {k} empty')
        path = os.path.join(root, 'cog', f'{code}.tif')
        if not os.path.isfile(path):
            errs.append(f'{code}: COG missing')
            continue
        try:
            warnings, verrs, _ = validate(path, full_check=True)
            errs += [f'{code}: COG: {e}' for e in verrs]
        except ValidateCloudOptimizedGeoTIFFException as exc:
            errs.append(f'{code}: COG: {exc}')
        ds = gdal.Open(path)
        gt = ds.GetGeoTransform()
        if (ds.RasterXSize, ds.RasterYSize, ds.RasterCount) != (geo.WIDTH, geo.HEIGHT, 1):
            errs.append(f'{code}: size {ds.RasterXSize}x{ds.RasterYSize}x{ds.RasterCount}')
        if any(abs(a - b) > 1e-12 for a, b in zip(gt, geo.GEOTRANSFORM)):
            errs.append(f'{code}: geotransform {gt}')
        b = ds.GetRasterBand(1)
        if gdal.GetDataTypeName(b.DataType) != r['dataType']:
            errs.append(f'{code}: data type {gdal.GetDataTypeName(b.DataType)} != {r["dataType"]}')
        if b.GetNoDataValue() is None or float(b.GetNoDataValue()) != float(r['noData']):
            errs.append(f'{code}: no-data {b.GetNoDataValue()} != {r["noData"]}')
        if b.GetOverviewCount() < 1:
            errs.append(f'{code}: no overviews')
        a = b.ReadAsArray()
        nd = float(r['noData'])
        if (a[~mask] != nd).any():
            errs.append(f'{code}: values outside the ISO3 mask')
        if code in follows_elev and not (((a == nd) & mask) == elev_nd).all():
            errs.append(f'{code}: no-data inside the mask differs from that of ELEVATION')
        if code == 'FRICTION_WALK':
            # friction.py: no-data (a barrier) exactly where SLOPE is or the cell holds no land
            ls_ds = gdal.Open(os.path.join(root, 'cog', 'LAND_SHARE.tif'))  # kept: a band outliving its dataset crashes GDAL
            ls = ls_ds.GetRasterBand(1).ReadAsArray()
            want = mask & (elev_nd | (ls <= friction.MAX_BARRIER_LAND_SHARE_PCT))
            if not (((a == nd) & mask) == want).all():
                errs.append(f'{code}: no-data inside the mask differs from SLOPE no-data or LAND_SHARE <= ' + f'{friction.MAX_BARRIER_LAND_SHARE_PCT:g}')
            if (a[mask & ~want] <= 0).any():
                errs.append(f'{code}: friction values <= 0')
        elif code == 'CENSUS_POP':
            # census figures by first-level unit (pop_model.read_census): whole countries have them or not
            iso_a = iso_ds.GetRasterBand(1).ReadAsArray()
            for v in np.unique(iso_a[mask]):
                nd_c = a[mask & (iso_a == v)] == nd
                if nd_c.any() and not nd_c.all():
                    errs.append(f'{code}: country value {v} is partly no-data')
        elif r['type'] == 'continuous' and code not in follows_elev and not code.startswith('PN14_') \
                and (a[mask] == nd).any():
            errs.append(f'{code}: no-data inside the mask')
        if r['type'] == 'class':
            tab = os.path.join(root, r['classTable'])
            if not os.path.isfile(tab):
                errs.append(f'{code}: class table missing')
                continue
            with open(tab, encoding='utf-8', newline='') as fh:
                trs = list(csv.DictReader(fh))
            labelled = {int(t['value']) for t in trs if t['label'].strip()}
            present = set(np.unique(a[mask & ~elev_nd if code in follows_elev else mask]).tolist())
            if present - labelled:
                errs.append(f'{code}: unlabelled values {sorted(present - labelled)[:10]}')
            if (a[mask & ~elev_nd if code in follows_elev else mask] == nd).any():
                errs.append(f'{code}: no-data inside the mask')
    with open(os.path.join(root, 'manifest.json'), encoding='utf-8') as fh:
        man = json.load(fh)
    listed = {f['path']: f for f in man['files']}
    on_disk = set()
    for dirpath, _, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, '/')
            if rel != 'manifest.json':
                on_disk.add(rel)
            if rel.endswith('.aux.xml'):
                errs.append(f'side file {rel}')
    if on_disk != set(listed):
        errs.append(f'manifest / files differ: {sorted(on_disk ^ set(listed))}')
    for rel, f in listed.items():
        p = os.path.join(root, rel)
        if os.path.isfile(p):
            data = open(p, 'rb').read()
            if len(data) != f['bytes'] or hashlib.sha256(data).hexdigest() != f['sha256']:
                errs.append(f'manifest: {rel} size or sha256 differs')
            if len(data) > 20 * 1024 * 1024:
                errs.append(f'{rel} is over 20 MB')
    total = sum(f['bytes'] for f in man['files'])
    if total > 25 * 1024 * 1024:
        errs.append(f'bundle is {total} bytes (> 25 MB)')
    if errs:
        for e in errs:
            print(f'data:build: INVALID: {e}', file=sys.stderr)
        sys.exit(2)
    print(f'data:build: bundle valid: {len(recs)} indicators, {len(listed)} files, {total} bytes')


if __name__ == '__main__':
    main()
