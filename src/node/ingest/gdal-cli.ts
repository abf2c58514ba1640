/**
 * The `--raster` and `--boundaries` options of `npm run ingest` (GDAL required):
 *
 *   npm run ingest -- --raster <file.tif> --record <record.yaml|csv> --out <bundle>
 *   npm run ingest -- --boundaries <file.geojson|gpkg> --level 1|2 [--name-field F] [--code-field F]
 *                     [--iso3-field F] [--parent-field F] --out <bundle>
 *
 * Both add layers to the bundle at --out (its grid from manifest.json; land cells from its
 * ISO3 layer). They may be repeated (several rasters with their records, in order).
 * Exit codes as the table ingest: 0 done, 2 usage error, 3 I/O error (GDAL missing or failing).
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { isIndapiError } from '../../core/errors';
import { ingestRaster } from './gdal-raster';
import { ingestBoundaries } from './gdal-boundaries';

/** Usage text of the GDAL options. */
export const GDAL_USAGE = `  --raster <file.tif> --record <record.yaml|csv>   resample a raster onto the grid (average, sum or mode; GDAL)
  --boundaries <file> --level 1|2 [--name-field F] [--code-field F] [--iso3-field F] [--parent-field F]
                                                   rasterise units into ADM1_/ADM2_ key layers (GDAL)`;

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
  if (!values.out || rasters.length !== records.length || (values.boundaries && !['1', '2'].includes(String(values.level)))) {
    process.stderr.write(`usage: npm run ingest -- --out <bundle> with\n${GDAL_USAGE}\n(one --record per --raster; --level 1 or 2 with --boundaries)\n`);
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
    for (let i = 0; i < rasters.length; i++) {
      const r = await ingestRaster({ raster: resolve(rasters[i]), record: resolve(records[i]), out, signal });
      process.stderr.write(`raster: ${r.code} (gdalwarp -r ${r.method}): ${r.cells} cells, sum ${r.sum.toPrecision(8)}\n`);
      for (const w of r.warnings) process.stderr.write(`  warning: ${w}\n`);
    }
    return 0;
  } catch (e) {
    process.stderr.write(`ingest failed: ${(e as Error).message}\n`);
    return isIndapiError(e) && e.code === 'BAD_ARGUMENT' ? 2 : 3;
  }
}
