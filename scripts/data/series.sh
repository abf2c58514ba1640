#!/usr/bin/env bash
# npm run data:series: rebuild only the national series of the embedded bundle
# (public/data/series/: national.csv, vi.csv, sources.csv; scripts/data/national_series.R, from
# the Debian packages r-cran-pwt9, r-cran-dslabs and python3-statsmodels) and refresh their
# entries in public/data/manifest.json. `npm run data:build` runs the same R script.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DEST="${1:-$ROOT/public/data}"
Rscript "$ROOT/scripts/data/national_series.R" "$DEST"
/usr/bin/python3 - "$DEST" <<'PY'
import hashlib, json, os, sys
d = sys.argv[1]
mp = os.path.join(d, 'manifest.json')
m = json.load(open(mp, encoding='utf-8'))
keep = [f for f in m['files'] if not f['path'].startswith('series/')]
for n in sorted(os.listdir(os.path.join(d, 'series'))):
    full = os.path.join(d, 'series', n)
    keep.append({'path': f'series/{n}', 'bytes': os.path.getsize(full), 'sha256': hashlib.sha256(open(full, 'rb').read()).hexdigest()})
m['files'] = sorted(keep, key=lambda f: f['path'])
with open(mp, 'w', encoding='utf-8') as fh:
    json.dump(m, fh, indent=2, ensure_ascii=False)
    fh.write('\n')
print(f'manifest.json: {len(m["files"])} files')
PY
