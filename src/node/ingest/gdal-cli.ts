/**
 * The `--raster` and `--boundaries` options of `npm run ingest` (GDAL required):
 *
 *   npm run ingest -- --raster <file.tif> --record <record.yaml|csv> --out <bundle>
 *   npm run ingest -- --raster <folder> | --raster <CODE>_<YYYY>.tif ... --record <record> --out <bundle>
 *   npm run ingest -- --boundaries <file.geojson|gpkg> --level 1|2 [--name-field F] [--code-field F]
 *                     [--iso3-field F] [--parent-field F] --out <bundle>
 *
 * Both add layers to the bundle at --out (its grid from manifest.json; land cells from its
 * ISO3 layer). They may be repeated (several rasters with their records, in order). Yearly
 * rasters form a series: a folder (its `<NAME>_<YYYY>.tif` files) or several rasters named
 * `<NAME>_<YYYY>.tif` with ONE record become the years of the series the record's varCode names
 * (layers `<varCode>_<YYYY>`); the series formed are listed on stderr.
 * Exit codes as the table ingest: 0 done, 2 usage error, 3 I/O error (GDAL missing or failing).
 */
import { parseArgs } from 'node:util';
import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { seriesText } from '../../core/bundle';
import { IndapiError, isIndapiError } from '../../core/errors';
import { ingestRaster } from './gdal-raster';
import { ingestBoundaries } from './gdal-boundaries';

/** Usage text of the GDAL options. */
export const GDAL_USAGE = `  --raster <file.tif> --record <record.yaml|csv>   resample a raster onto the grid (average, sum or mode; GDAL)
  --raster <folder>|<CODE>_<YYYY>.tif ... --record <record>
                                                   yearly rasters as one series (one record; layers <varCode>_<YYYY>)
  --boundaries <file> --level 1|2 [--name-field F] [--code-field F] [--iso3-field F] [--parent-field F]
                                                   rasterise units into ADM1_/ADM2_ key layers (GDAL)`;

/** One raster ingest of a run: the raster, its record, and its year when it is a year of a series. */
export interface RasterRun { raster: string; record: string; year?: number }

const YEARLY = /^(.+)_((?:19|20)\d\d)\.tiff?$/i;

/**
 * The raster ingests the `--raster` and `--record` flags ask for: one record per raster (in
 * order), or yearly rasters with one record: a folder stands for its `<NAME>_<YYYY>.tif` files,
 * and two or more rasters with one record must each be named `<NAME>_<YYYY>.tif` with distinct years.
 * @param isDir tells a folder from a file; `list` gives a folder's file names
 * @throws IndapiError BAD_ARGUMENT for counts that do not pair, a folder without yearly rasters, a repeated year or a raster not named by its year
 */
export function planRasterRuns(rasters: string[], records: string[], isDir: (p: string) => boolean = (p) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false,
  list: (p: string) => string[] = (p) => readdirSync(p)): RasterRun[] {
  const folders = rasters.filter(isDir);
  const files = rasters.flatMap((r) => (isDir(r) ? list(r).filter((f) => YEARLY.test(f)).sort().map((f) => join(r, f)) : [r]));
  for (const f of folders) if (!list(f).some((n) => YEARLY.test(n))) throw new IndapiError('BAD_ARGUMENT', `--raster ${f}: the folder has no raster named <NAME>_<YYYY>.tif.`);
  if (!folders.length && records.length === rasters.length) return rasters.map((raster, i) => ({ raster, record: records[i] }));
  if (records.length !== 1) throw new IndapiError('BAD_ARGUMENT', `${records.length} --record for ${rasters.length} --raster: give one --record per raster, or one for a folder or several <NAME>_<YYYY>.tif rasters (a series).`);
  const seen = new Set<number>();
  return files.map((raster) => {
    const m = YEARLY.exec(basename(raster));
    if (!m) throw new IndapiError('BAD_ARGUMENT', `--raster ${raster}: the rasters of a series must be named <NAME>_<YYYY>.tif.`);
    const year = Number(m[2]);
    if (seen.has(year)) throw new IndapiError('BAD_ARGUMENT', `--raster: two rasters of ${year}; a series holds one per year.`);
    seen.add(year);
    return { raster, record: records[0], year };
  }).sort((a, b) => a.year - b.year);
}

/** True when the arguments ask for a raster or boundary ingest. */
export function wantsGdal(argv: string[]): boolean {
  return argv.some((a) => a === '--raster' || a === '--boundaries' || a.startsWith('--raster=') || a.startsWith('--boundaries='));
}

/**
 * Runs the raster and boundary options (when {@link wantsGdal}); messages on stderr.
 * @param argv command-line arguments after the script name
 * @returns exit code
 */
export async function runGdalOptions(argv: string[], signal?: AbortSignal): Promise<number> {
  let values: Record<string, string | string[] | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: {
      raster: { type: 'string', multiple: true }, record: { type: 'string', multiple: true },
      boundaries: { type: 'string' }, level: { type: 'string' }, 'name-field': { type: 'string' }, 'code-field': { type: 'string' },
      'iso3-field': { type: 'string' }, 'parent-field': { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' },
    } }) as unknown as { values: Record<string, string | string[] | undefined> });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nusage: npm run ingest -- ... --out <bundle>\n${GDAL_USAGE}\n`);
    return 2;
  }
  const rasters = (values.raster as string[] | undefined) ?? [], records = (values.record as string[] | undefined) ?? [];
  let runs: RasterRun[];
  try {
    runs = rasters.length ? planRasterRuns(rasters.map((r) => resolve(r)), records.map((r) => resolve(r))) : [];
  } catch (e) {
    if (!isIndapiError(e)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  if (!values.out || (!rasters.length && records.length) || (values.boundaries && !['1', '2'].includes(String(values.level)))) {
    process.stderr.write(`usage: npm run ingest -- --out <bundle> with\n${GDAL_USAGE}\n(one --record per --raster, or one for a series; --level 1 or 2 with --boundaries)\n`);
    return 2;
  }
  const out = resolve(values.out as string);
  try {
    if (values.boundaries) {
      const r = await ingestBoundaries({
        boundaries: resolve(values.boundaries as string), level: Number(values.level) as 1 | 2, out, signal,
        nameField: values['name-field'] as string | undefined, codeField: values['code-field'] as string | undefined,
        iso3Field: values['iso3-field'] as string | undefined, parentField: values['parent-field'] as string | undefined,
      });
      process.stderr.write(`boundaries: ${r.codes.join(', ')}: ${r.units} units on ${r.cells} cells` +
        (r.empty.length ? `; ${r.empty.length} units got no cell: ${r.empty.slice(0, 10).join('; ')}${r.empty.length > 10 ? ' ...' : ''}` : '') + '\n');
    }
    let series: string[] = [];
    for (const run of runs) {
      const r = await ingestRaster({ ...run, out, signal });
      process.stderr.write(`raster: ${r.code} (gdalwarp -r ${r.method}): ${r.cells} cells, sum ${r.sum.toPrecision(8)}\n`);
      for (const w of r.warnings) process.stderr.write(`  warning: ${w}\n`);
      series = r.series.map(seriesText);
    }
    for (const s of series) process.stderr.write(`series: ${s}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`ingest failed: ${(e as Error).message}\n`);
    return isIndapiError(e) && e.code === 'BAD_ARGUMENT' ? 2 : 3;
  }
}
