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
import Papa from 'papaparse';
import { IndapiError } from '../../core/errors';
import { gridFromManifest, SSA_GRID, type GridDef } from '../../core/grid';
import type { ClassEntry } from '../../core/types';

/** The grid of a bundle folder (manifest.json's `grid`), or the SSA grid when there is none. */
export async function bundleGrid(dir: string): Promise<GridDef> {
  try {
    const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { grid?: unknown };
    return gridFromManifest(m.grid, SSA_GRID);
  } catch {
    // no manifest: the default grid
  }
  return SSA_GRID;
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
 * @throws IndapiError IO when vi.csv cannot be parsed
 */
export async function addLayersToBundle(dir: string, layers: AddedLayer[], written: string[] = []): Promise<void> {
  const changed: string[] = [...written];
  await mkdir(join(dir, 'classes'), { recursive: true });
  for (const l of layers) {
    const code = l.record.varCode;
    changed.push(`cog/${code}.tif`);
    if (l.classes) {
      const extra = [...new Set(l.classes.flatMap((c) => Object.keys(c)))].filter((k) => !['value', 'label', 'color'].includes(k));
      const fields = ['value', 'label', 'color', ...extra];
      const path = `classes/${code}.csv`;
      await writeFile(join(dir, path), Papa.unparse({ fields, data: l.classes.map((c) => fields.map((f) => (c[f] === undefined ? '' : String(c[f])))) }, { newline: '\n' }) + '\n');
      l.record.classTable = path;
      changed.push(path);
    }
  }
  // vi.csv: keep every field and record; replace or append
  const viPath = join(dir, 'vi.csv');
  let fields: string[] = [];
  let rows: Record<string, string>[] = [];
  if (existsSync(viPath)) {
    const res = Papa.parse<Record<string, string>>((await readFile(viPath, 'utf8')).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    const bad = res.errors.find((e) => e.type !== 'Delimiter');
    if (bad) throw new IndapiError('IO', `Cannot parse ${viPath}: ${bad.message} (row ${bad.row}).`);
    fields = res.meta.fields ?? [];
    rows = res.data;
  }
  for (const l of layers) {
    for (const f of Object.keys(l.record)) if (!fields.includes(f)) fields.push(f);
    const i = rows.findIndex((r) => r.varCode === l.record.varCode);
    if (i >= 0) rows[i] = { ...rows[i], ...l.record };
    else rows.push(l.record);
  }
  await writeFile(viPath, Papa.unparse({ fields, data: rows.map((r) => fields.map((f) => r[f] ?? '')) }, { newline: '\n' }) + '\n');
  changed.push('vi.csv');
  // manifest.json: size and sha256 of every changed file
  const mPath = join(dir, 'manifest.json');
  const manifest: { files?: Array<{ path: string; bytes: number; sha256: string }>; [k: string]: unknown } = existsSync(mPath)
    ? JSON.parse(await readFile(mPath, 'utf8'))
    : { name: 'indapi3-bundle', version: '0.0.0', created: new Date().toISOString().slice(0, 10), grid: SSA_GRID };
  const files = manifest.files ?? [];
  for (const p of changed) {
    const entry = { path: p, bytes: (await stat(join(dir, p))).size, sha256: await sha256(join(dir, p)) };
    const i = files.findIndex((f) => f.path === p);
    if (i >= 0) files[i] = entry;
    else files.push(entry);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  manifest.files = files;
  await writeFile(mPath, JSON.stringify(manifest, null, 2) + '\n');
}

/** Qualitative colours (ColorBrewer Set3) cycled over classes without colours. */
export const CLASS_COLORS = ['#8dd3c7', '#ffffb3', '#bebada', '#fb8072', '#80b1d3', '#fdb462', '#b3de69', '#fccde5', '#d9d9d9', '#bc80bd', '#ccebc5', '#ffed6f'];
