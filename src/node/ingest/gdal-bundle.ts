/**
 * Adding layers made with GDAL (rasters, rasterised boundaries) to a bundle folder: the COG
 * under cog/, the record in vi.csv (every field the file already has is kept; new fields are
 * appended), the class table under classes/, and manifest.json's size and sha256 of every
 * changed file. CSV through papaparse.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BundleManifest, type FormedSeries, classTablePath, markSeries, openBundle, cogPath, manifestGrid, parseManifest, parseViRecords, serialiseManifest } from '../../core/bundle';
import { serialiseClassTable, serialiseVi } from '../../core/bundle/tables-write';
import { SSA_GRID, type GridDef } from '../../core/grid';
import type { ClassEntry } from '../../core/types';
import { fileTextLoader } from '../file-source';

/** The grid of a bundle folder (manifest.json's `grid`), or the SSA grid when there is none. */
export async function bundleGrid(dir: string): Promise<GridDef> {
  // the bundle reader (src/core/bundle/open.ts); no manifest, or not a manifest: the default grid
  return manifestGrid(await openBundle({ text: fileTextLoader(dir) }).optionalManifest().catch(() => null));
}

/** A layer to add: its COG is already written at `cog/<code>.tif`. */
export interface AddedLayer {
  /** Catalog record fields (text), at least varCode and type. */
  record: Record<string, string>;
  /** Class table rows for class layers (written to classes/<code>.csv). */
  classes?: ClassEntry[];
}

async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/**
 * Writes class tables and records of added layers and updates manifest.json. A record whose
 * code is already in vi.csv is replaced in place; others are appended.
 * @param dir bundle folder
 * @param layers the layers (their COGs written)
 * @param written further files already written into the bundle (paths relative to `dir`, e.g.
 *   `basemap/admin2.geojson`), listed in manifest.json with their size and sha256 too
 * @returns the series vi.csv's records form after the addition (src/core/bundle/series-form.ts)
 * @throws IndapiError IO when vi.csv cannot be parsed
 */
export async function addLayersToBundle(dir: string, layers: AddedLayer[], written: string[] = []): Promise<FormedSeries[]> {
  const changed: string[] = [...written];
  await mkdir(join(dir, 'classes'), { recursive: true });
  for (const l of layers) {
    const code = l.record.varCode;
    changed.push(cogPath(code));
    if (l.classes) {
      const extra = [...new Set(l.classes.flatMap((c) => Object.keys(c)))].filter((k) => !['value', 'label', 'color'].includes(k));
      const path = classTablePath(code);
      await writeFile(join(dir, path), serialiseClassTable(l.classes, extra));
      l.record.classTable = path;
      changed.push(path);
    }
  }
  // vi.csv: keep every field and record; replace or append
  const viPath = join(dir, 'vi.csv');
  let fields: string[] = [];
  let rows: Record<string, string>[] = [];
  if (existsSync(viPath)) {
    ({ fields, records: rows } = parseViRecords(await readFile(viPath, 'utf8'), viPath));
  }
  for (const l of layers) {
    for (const f of Object.keys(l.record)) if (!fields.includes(f)) fields.push(f);
    const i = rows.findIndex((r) => r.varCode === l.record.varCode);
    if (i >= 0) rows[i] = { ...rows[i], ...l.record };
    else rows.push(l.record);
  }
  const formed = markSeries(rows, fields); // yearly layers <CODE>_<YYYY> (one --raster each) form the series <CODE>
  await writeFile(viPath, serialiseVi(fields, rows));
  changed.push('vi.csv');
  // manifest.json: size and sha256 of every changed file
  const mPath = join(dir, 'manifest.json');
  const manifest: BundleManifest = existsSync(mPath)
    ? parseManifest(await readFile(mPath, 'utf8'))
    : { name: 'indapi3-bundle', version: '0.0.0', created: new Date().toISOString().slice(0, 10), grid: SSA_GRID, files: [] };
  const files = manifest.files;
  for (const p of changed) {
    const entry = { path: p, bytes: (await stat(join(dir, p))).size, sha256: await sha256(join(dir, p)) };
    const i = files.findIndex((f) => f.path === p);
    if (i >= 0) files[i] = entry;
    else files.push(entry);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  manifest.files = files;
  await writeFile(mPath, serialiseManifest(manifest));
  return formed;
}

/** Qualitative colours (ColorBrewer Set3) cycled over classes without colours. */
export const CLASS_COLORS = ['#8dd3c7', '#ffffb3', '#bebada', '#fb8072', '#80b1d3', '#fdb462', '#b3de69', '#fccde5', '#d9d9d9', '#bc80bd', '#ccebc5', '#ffed6f'];
