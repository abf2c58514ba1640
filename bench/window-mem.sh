#!/bin/bash
# Memory of a wide bundle window (issue 15 item 1): the same MADE-UP table (bench/gen-table.ts,
# 303,000 rows x 60 columns) ingested on the embedded window [-26, -35, 64, 28] and on the fixed
# SSA window [-26, -48, 73, 28] (--window ssa); for each: the ingest's wall time and peak RSS,
# the COG folder size, and a whole-region query (bench/window-query.ts) cold in a fresh process
# (peak RSS), under /usr/bin/time -v (Debian package `time`).
#   bash bench/window-mem.sh [work folder, default .cache/window-mem]
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-.cache/window-mem}
mkdir -p "$W"
[ -f "$W/table.csv" ] || npx tsx bench/gen-table.ts --rows 303000 --cols 60 --out "$W" > /dev/null
for w in "-26,-35,64,28" "ssa"; do
  d="$W/bundle${w//,/_}"; rm -rf "$d"
  /usr/bin/time -v node --import tsx src/node/ingest/cli.ts --table "$W/table.csv" --catalog "$W/vi.csv" --out "$d" --window="$w" --quiet 2> "$W/time.txt"
  echo "window $w: grid $(node -e "const g=require('./$d/manifest.json').grid;console.log(g.width+' x '+g.height)"), ingest $(grep -E 'Elapsed|Maximum resident' "$W/time.txt" | tr -s ' \t' ' ' | tr '\n' ';'), cog $(du -sh "$d/cog" | cut -f1)"
  /usr/bin/time -v node --import tsx bench/window-query.ts "$d" 2> "$W/time.txt"
  echo "  whole-region query: $(grep -E 'Maximum resident' "$W/time.txt" | tr -s ' \t' ' ')"
done
