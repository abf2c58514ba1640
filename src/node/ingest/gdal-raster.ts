/**
 * Raster ingest (issue 9 item 5): `--raster <file.tif> --record <yaml|csv>` resamples any
 * GDAL-readable raster onto the bundle grid with gdalwarp and adds it as a layer:
 *
 * - `average` (continuous): `gdalwarp -r average`, the mean of the source pixels in the cell
 *   weighted by the part of each pixel inside the cell (GDAL >= 3.1);
 * - `sum` (counts, areas, people): `gdalwarp -r sum`, the sum of the source pixels weighted by
 *   the same fractions, so totals are preserved (GDAL >= 3.1);
 * - `mode` (classes): `gdalwarp -r mode`, the most frequent class value among the source pixels.
 *
 * The method is the record's `resample` field when given, else `mode` for `type: class`,
 * `sum` when `aggFunR` is a plain `sum(...)`, else `average`; it is stated at the end of
 * `varDesc`. Output: `gdalwarp -t_srs EPSG:4326 -te xmin ymin xmax ymax -ts width height`
 * (for the SSA grid: -te -26 -35 64 28, 1/12 degree), Float32, then masked to the bundle's
 * land cells (cells with an ISO3) when the bundle has an ISO3 layer.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { nodeInflate } from '../engine';
import Papa from 'papaparse';
import { parse as parseYaml } from 'yaml';
import { CogStore } from '../../core/cog/store';
import { IndapiError } from '../../core/errors';
import type { GridDef } from '../../core/grid';
import type { ClassEntry } from '../../core/types';
import type { FormedSeries } from '../../core/bundle';
import { fileSourceFactory } from '../file-source';
import { addLayersToBundle, bundleGrid, CLASS_COLORS } from './gdal-bundle';
import { requireGdal, runGdal, writeGridCog, type GdalType } from './gdal-tools';

/** Resampling methods of the raster ingest. */
export type ResampleMethod = 'average' | 'sum' | 'mode';

/** Options of {@link ingestRaster}. */
export interface IngestRasterOptions {
  /** Source raster (any GDAL-readable file, any CRS). */
  raster: string;
  /** Record file: YAML (a mapping of catalog fields) or CSV (header of catalog fields, one row). */
  record: string;
  /** Bundle folder to add the layer to (created when missing; its grid from manifest.json). */
  out: string;
  /**
   * The year of a yearly raster (whole number): the layer becomes the year's member of the series
   * named by the record's varCode (`<varCode>_<year>`, `cog/<varCode>_<year>.tif`, `series` =
   * varCode, `year` = `yearEnd` = year; the varCode in `aggFunR` renamed to the member's code).
   */
  year?: number;
  /** Aborts the run (the GDAL process is killed). */
  signal?: AbortSignal;
}

/** What {@link ingestRaster} added. */
export interface IngestRasterResult {
  /** Layer code. */
  code: string;
  /** Resampling used. */
  method: ResampleMethod;
  /** Cells with a value. */
  cells: number;
  /** Sum of the values over the grid before masking to land (for `sum`: the source total inside the grid). */
  gridSum: number;
  /** Sum of the values written. */
  sum: number;
  /** Warnings (class values without labels, values dropped by the land mask). */
  warnings: string[];
  /** The series of the bundle's vi.csv after this layer (src/core/bundle/series-form.ts). */
  series: FormedSeries[];
}

/**
 * A record as the year's member of the series its varCode names (see {@link IngestRasterOptions.year}).
 * @throws IndapiError BAD_ARGUMENT when `year` is not a whole number 1900-2099
 */
export function yearMember(rec: Record<string, string>, year: number): Record<string, string> {
  if (!Number.isInteger(year) || year < 1900 || year > 2099) throw new IndapiError('BAD_ARGUMENT', `A raster's year must be a whole number 1900-2099, got ${year}.`);
  const stem = rec.varCode, code = `${stem}_${year}`;
  const aggFunR = (rec.aggFunR ?? '').replace(new RegExp(`\\b${stem.replace(/\./g, '\\.')}\\b`, 'g'), code);
  return { ...rec, varCode: code, series: stem, year: String(year), yearEnd: String(year), ...(rec.aggFunR ? { aggFunR } : {}) };
}

/**
 * Reads a record file: YAML mapping or one-row CSV; every value as text.
 * @throws IndapiError BAD_ARGUMENT when it has no varCode or no type, or cannot be read
 */
export async function readRecord(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  } catch (e) {
    throw new IndapiError('IO', `Cannot read the record ${path}: ${(e as Error).message}`);
  }
  let obj: Record<string, unknown>;
  if (/\.csv$/i.test(path)) {
    const res = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    if (res.data.length !== 1) throw new IndapiError('BAD_ARGUMENT', `The record ${path} must have a header and exactly one row (it has ${res.data.length}).`);
    obj = res.data[0];
  } else {
    try {
      obj = parseYaml(text) as Record<string, unknown>;
    } catch (e) {
      throw new IndapiError('BAD_ARGUMENT', `The record ${path} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new IndapiError('BAD_ARGUMENT', `The record ${path} must be a YAML mapping of catalog fields (varCode: ..., type: ...).`);
  }
  const rec: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) rec[k] = v === null || v === undefined ? '' : Array.isArray(v) ? v.join('|') : String(v);
  if (!rec.varCode || !/^[A-Za-z][A-Za-z0-9_.]*$/.test(rec.varCode)) throw new IndapiError('BAD_ARGUMENT', `The record ${path} needs a varCode (letters, digits, _ and .), got '${rec.varCode ?? ''}'.`);
  if (rec.type !== 'class' && rec.type !== 'continuous') throw new IndapiError('BAD_ARGUMENT', `The record ${path}: field type must be continuous or class, got '${rec.type ?? ''}'.`);
  return rec;
}

/**
 * The resampling of a record: its `resample` field, else mode for classes, sum for a plain
 * `sum(...)` formula, else average.
 * @throws IndapiError BAD_ARGUMENT for an unknown `resample` value
 */
export function resampleMethod(rec: Record<string, string>): ResampleMethod {
  const r = (rec.resample ?? '').trim().toLowerCase();
  if (r) {
    if (r !== 'average' && r !== 'sum' && r !== 'mode') throw new IndapiError('BAD_ARGUMENT', `resample must be average, sum or mode, got '${rec.resample}'.`);
    return r;
  }
  if (rec.type === 'class') return 'mode';
  return /^\s*sum\s*\([^()/]*\)\s*$/.test(rec.aggFunR ?? '') ? 'sum' : 'average';
}

const METHOD_TEXT: Record<ResampleMethod, string> = {
  average: 'the mean of the source pixels weighted by the part of each pixel inside the cell',
  sum: 'the sum of the source pixels weighted by the part of each pixel inside the cell, which preserves totals',
  mode: 'the most frequent source class in the cell',
};

/** Reads a whole-grid GeoTIFF written by GDAL as Float32 (gdalwarp -ot Float32; no-data as NaN). */
async function readGridTiff(dir: string, name: string, grid: GridDef): Promise<Float32Array> {
  const store = new CogStore({ source: fileSourceFactory(dir), inflate: nodeInflate, cacheBytes: 8 * 2 ** 20 });
  try {
    return Float32Array.from(await store.readFloat(name, [0, 0, grid.width, grid.height]));
  } finally {
    await store.close();
  }
}

/** The land mask of a bundle (cells with an ISO3), or null when it has no ISO3 layer. */
export async function landMask(dir: string, grid: GridDef): Promise<Uint8Array | null> {
  if (!existsSync(join(dir, 'cog/ISO3.tif'))) return null;
  const store = new CogStore({ source: fileSourceFactory(dir), inflate: nodeInflate, cacheBytes: 8 * 2 ** 20 });
  try {
    const iso = await store.readInt('cog/ISO3.tif', [0, 0, grid.width, grid.height]);
    return Uint8Array.from(iso, (v) => (v >= 0 ? 1 : 0));
  } finally {
    await store.close();
  }
}

/**
 * Resamples a raster onto the bundle grid and adds it as a layer (COG, record, class table, manifest).
 * @throws IndapiError IO when GDAL is missing or fails, BAD_ARGUMENT for a bad record, ABORTED on abort
 */
export async function ingestRaster(opts: IngestRasterOptions): Promise<IngestRasterResult> {
  requireGdal(['gdalwarp', 'gdal_translate'], '--raster');
  if (!existsSync(opts.raster)) throw new IndapiError('IO', `The raster ${opts.raster} does not exist.`);
  const rec = opts.year === undefined ? await readRecord(opts.record) : yearMember(await readRecord(opts.record), opts.year);
  const method = resampleMethod(rec);
  const grid = await bundleGrid(opts.out);
  const tmp = await mkdtemp(join(tmpdir(), 'indapi3-raster-'));
  const warnings: string[] = [];
  try {
    await runGdal('gdalwarp', ['-q', '-overwrite', '-t_srs', 'EPSG:4326', '-te', String(grid.xmin), String(grid.ymin), String(grid.xmax), String(grid.ymax),
      '-ts', String(grid.width), String(grid.height), '-r', method, '-ot', 'Float32', '-dstnodata', 'nan', '-of', 'GTiff', opts.raster, join(tmp, 'warped.tif')], opts.signal);
    const values = await readGridTiff(tmp, 'warped.tif', grid);
    let gridSum = 0;
    for (const v of values) if (v === v) gridSum += v;
    const mask = await landMask(opts.out, grid);
    let dropped = 0;
    if (mask) for (let i = 0; i < values.length; i++) if (!mask[i] && values[i] === values[i]) { values[i] = NaN; dropped++; }
    if (dropped) warnings.push(`${dropped} cells with a value outside the bundle's land cells (no ISO3) were left out.`);
    let cells = 0, sum = 0;
    for (const v of values) if (v === v) { cells++; sum += v; }
    const code = rec.varCode;
    const desc = `Resampled onto the 5-arc-minute grid (EPSG:4326, 1/12 degree) from ${basename(opts.raster)} with gdalwarp -r ${method}: ${METHOD_TEXT[method]}.`;
    const record: Record<string, string> = { ...rec, resample: method };
    record.varDesc = rec.varDesc ? `${rec.varDesc.replace(/\s*$/, '')} ${desc}` : desc;
    record.aggFunR ||= rec.type === 'class' ? `names(sort(table(${code}), decreasing=T)[1])` : method === 'sum' ? `sum(${code}, na.rm=TRUE)` : `mean(${code}, na.rm=TRUE)`;
    record.dec ||= rec.type === 'class' ? '0' : '2';
    await mkdir(join(opts.out, 'cog'), { recursive: true });
    let classes: ClassEntry[] | undefined;
    let type: GdalType = 'Float32', noData = -9999;
    if (rec.type === 'class') {
      const ints = new Int32Array(values.length).fill(-1);
      const seen = new Set<number>();
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (v === v) {
          ints[i] = Math.round(v);
          seen.add(ints[i]);
        }
      }
      if ([...seen].some((v) => v < 0)) throw new IndapiError('BAD_ARGUMENT', `${basename(opts.raster)}: class values must be whole numbers of 0 or more.`);
      const vals = (rec.classBreaks ?? '').split('|').filter((s) => s !== '').map(Number);
      const labs = (rec.classLabels ?? '').split('|');
      const cols = (rec.classColors ?? '').split('|');
      const max = Math.max(0, ...seen, ...vals);
      type = max < 255 ? 'Byte' : max < 65535 ? 'UInt16' : 'Int32';
      noData = type === 'Byte' ? 255 : type === 'UInt16' ? 65535 : -1;
      const unlabelled = [...seen].filter((v) => !vals.includes(v)).sort((a, b) => a - b);
      if (unlabelled.length) warnings.push(`class values without a label in the record (classBreaks/classLabels), labelled by their value: ${unlabelled.join(', ')}`);
      classes = [...vals.map((v, i) => ({ value: v, label: labs[i] || String(v), color: cols[i] || CLASS_COLORS[i % CLASS_COLORS.length] })),
        ...unlabelled.map((v, i) => ({ value: v, label: String(v), color: CLASS_COLORS[(vals.length + i) % CLASS_COLORS.length] }))];
      record.dataType = type;
      record.noData = String(noData);
      await writeGridCog(grid, ints, type, noData, join(tmp, 'layer'), join(opts.out, 'cog', `${code}.tif`), opts.signal);
    } else {
      record.dataType = 'Float32';
      record.noData = '-9999';
      await writeGridCog(grid, values, type, noData, join(tmp, 'layer'), join(opts.out, 'cog', `${code}.tif`), opts.signal);
    }
    const series = await addLayersToBundle(opts.out, [{ record, classes }]);
    return { code, method, cells, gridSum, sum, warnings, series };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
