#!/usr/bin/python3
"""BENCHMARK FIXTURE, not data: a bundle on the full SSA grid (1080 x 756 cells) with made-up
values from formulas, used by `npm run bench` only while the real bundle is not in
public/data. Layers: ISO3 (48 block "countries"), ADM1_CODE_ALT (~760 units), ELEVATION, SLOPE,
TRI, AREA_LAND, DIST_COAST; COGs as the bundle layout says (256 x 256 tiles, DEFLATE +
predictor, overviews, GDAL_NODATA). Usage: make-bench-bundle.py <out dir>"""
import csv, json, os, sys
import numpy as np
from osgeo import gdal

gdal.UseExceptions()
OUT = sys.argv[1]
W, H, RES, XMIN, YMAX = 1080, 756, 1 / 12, -26.0, 28.0
col, row = np.meshgrid(np.arange(W), np.arange(H))
lon = XMIN + (col + 0.5) * RES
lat = YMAX - (row + 0.5) * RES
land = ((lon - 20) / 38) ** 2 + ((lat + 3) / 31) ** 2 < 1.0  # an ellipse of "land"
iso = np.where(land, (row // 95) * 8 + (col // 135) + 1, 255).astype(np.uint8)  # <= 64 blocks
vals = sorted(set(np.unique(iso)) - {255})
adm1 = np.where(land, (row // 27) * 40 + (col // 27) + 1, 65535).astype(np.uint16)
units = sorted(set(np.unique(adm1)) - {65535})
def f32(a):
    a = a.astype(np.float32); a[~land] = np.nan; return a
layers = {
    'ELEVATION': f32(800 + 700 * np.sin(lon / 7) * np.cos(lat / 5) + 3 * (col % 17)),
    'SLOPE': f32(np.abs(np.sin(lon * 3) * 4 + np.cos(lat * 2))),
    'TRI': f32(10 + 8 * np.abs(np.sin(lon * lat / 50))),
    'AREA_LAND': f32(85.8 * np.cos(np.radians(lat)) * ((col * 7 + row) % 11 != 0)),
    'DIST_COAST': f32(np.abs(lon - 20) * 40 + np.abs(lat) * 20),
}
os.makedirs(os.path.join(OUT, 'cog'), exist_ok=True)
os.makedirs(os.path.join(OUT, 'classes'), exist_ok=True)
def write(name, a, dtype, nodata):
    a = a.copy()
    if a.dtype.kind == 'f': a[np.isnan(a)] = nodata
    ds = gdal.GetDriverByName('MEM').Create('', W, H, 1, dtype)
    ds.SetGeoTransform([XMIN, RES, 0, YMAX, 0, -RES]); ds.SetProjection('EPSG:4326')
    b = ds.GetRasterBand(1); b.SetNoDataValue(nodata); b.WriteArray(a)
    gdal.Translate(os.path.join(OUT, 'cog', name + '.tif'), ds, format='COG',
                   creationOptions=['BLOCKSIZE=256', 'COMPRESS=DEFLATE', 'PREDICTOR=YES', 'OVERVIEWS=AUTO'])
write('ISO3', iso, gdal.GDT_Byte, 255)
write('ADM1_CODE_ALT', adm1, gdal.GDT_UInt16, 65535)
for k, a in layers.items(): write(k, a, gdal.GDT_Float32, -9999)
codes = ['C%02d' % v for v in vals]
with open(os.path.join(OUT, 'classes', 'ISO3.csv'), 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n'); w.writerow(['value', 'label', 'color', 'name'])
    for v, c in zip(vals, codes): w.writerow([v, c, '', 'Bench country ' + c])
with open(os.path.join(OUT, 'classes', 'ADM1_CODE_ALT.csv'), 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n'); w.writerow(['value', 'label', 'color', 'name', 'iso3'])
    for u in units: w.writerow([u, 'U%04d' % u, '', 'Unit %d' % u, ''])
F = ['varCode', 'varLabel', 'varTitle', 'varDesc', 'unit', 'type', 'dec', 'aggFunR', 'classBreaks', 'classLabels', 'classColors', 'cat1', 'cat2', 'cat3',
     'year', 'yearEnd', 'sources', 'sourceMini', 'owner', 'citation', 'license', 'version', 'published', 'dataType', 'noData', 'classTable']
def rec(code, typ, dec, agg, breaks='', table=''):
    d = dict.fromkeys(F, ''); d.update(varCode=code, varLabel=code, varTitle=code, varDesc='benchmark fixture', type=typ, dec=dec, aggFunR=agg, classBreaks=breaks, classTable=table)
    return d
vi = [rec('ISO3', 'class', 0, 'dominant(ISO3)', table='classes/ISO3.csv'), rec('ADM1_CODE_ALT', 'class', 0, 'dominant(ADM1_CODE_ALT)', table='classes/ADM1_CODE_ALT.csv'),
      rec('ELEVATION', 'continuous', 0, 'mean(ELEVATION, na.rm=TRUE)', '-500|0|250|500|1000|1500|2000|3000|6000'),
      rec('SLOPE', 'continuous', 2, 'mean(SLOPE, na.rm=TRUE)', '0|1|2|5|100'),
      rec('TRI', 'continuous', 1, 'weighted.mean(TRI, AREA_LAND, na.rm=TRUE)', '0|10|20|100'),
      rec('AREA_LAND', 'continuous', 1, 'sum(AREA_LAND, na.rm=TRUE)', '0|50|100'),
      rec('DIST_COAST', 'continuous', 1, 'min(DIST_COAST, na.rm=TRUE)', '0|100|1000|10000')]
with open(os.path.join(OUT, 'vi.csv'), 'w', newline='') as f:
    w = csv.DictWriter(f, F, lineterminator='\n'); w.writeheader(); [w.writerow(r) for r in vi]
with open(os.path.join(OUT, 'iso.csv'), 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n'); w.writerow(['code', 'name', 'type', 'members', 'xmin', 'ymin', 'xmax', 'ymax', 'cells'])
    for v, c in zip(vals, codes):
        rr, cc = np.nonzero(iso == v)
        w.writerow([c, 'Bench country ' + c, 'country', c, XMIN + cc.min() * RES, YMAX - (rr.max() + 1) * RES, XMIN + (cc.max() + 1) * RES, YMAX - rr.min() * RES, len(rr)])
    w.writerow(['SSA', 'All', 'region', '|'.join(codes), XMIN, YMAX - H * RES, XMIN + W * RES, YMAX, int(land.sum())])
print(OUT, len(vals), 'countries', len(units), 'units', int(land.sum()), 'cells')
