/**
 * Readers for the committed data bundle `public/data/` used by the bundle tests: the manifest,
 * the catalog `vi.csv`, the class tables, `iso.csv` and whole COG bands (geotiff.js).
 * Nothing here writes data; the name marks it as test support, not shipped code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { fromFile } from 'geotiff';
import { SSA_GRID, pointToColRow } from '../../src/core/grid';
import type { VarRecord } from '../../src/core/types';

/** Absolute path of the bundle folder. */
export const BUNDLE = join(__dirname, '..', '..', 'public', 'data');

/** One file entry of manifest.json. */
export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

/** The manifest.json shape (bundle layout section of the brief). */
export interface Manifest {
  name: string;
  version: string;
  created: string;
  grid: Record<string, unknown>;
  files: ManifestFile[];
}

/** Parse a CSV file of the bundle (RFC 4180, header row) into string records. */
export function readCsv(rel: string): { fields: string[]; rows: Record<string, string>[] } {
  const text = readFileSync(join(BUNDLE, rel), 'utf8');
  const res = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  if (res.errors.length) throw new Error(`${rel}: ${res.errors[0].message}`);
  return { fields: res.meta.fields ?? [], rows: res.data };
}

/** manifest.json. */
export function readManifest(): Manifest {
  return JSON.parse(readFileSync(join(BUNDLE, 'manifest.json'), 'utf8')) as Manifest;
}

/** The catalog records (all fields as text, as in the CSV). */
export function readCatalog(): Record<keyof VarRecord, string>[] {
  return readCsv('vi.csv').rows as Record<keyof VarRecord, string>[];
}

/** A whole COG band as a typed array (row-major, SSA_GRID.width x SSA_GRID.height). */
export interface Band {
  data: Float32Array | Uint8Array | Uint16Array;
  noData: number;
}

const cache = new Map<string, Promise<Band>>();

/** Read the full-resolution band of cog/<code>.tif with geotiff.js (cached per test file). */
export function readBand(code: string): Promise<Band> {
  let p = cache.get(code);
  if (!p) {
    p = (async () => {
      const tiff = await fromFile(join(BUNDLE, 'cog', `${code}.tif`));
      const img = await tiff.getImage(0);
      if (img.getWidth() !== SSA_GRID.width || img.getHeight() !== SSA_GRID.height) {
        throw new Error(`${code}: image 0 is ${img.getWidth()}x${img.getHeight()}`);
      }
      const [data] = (await img.readRasters({ interleave: false })) as unknown as [Band['data']];
      const noData = Number(img.getGDALNoData());
      await tiff.close();
      return { data, noData };
    })();
    cache.set(code, p);
  }
  return p;
}

/** Index into a band of the cell containing a point (degrees). */
export function indexAt(lon: number, lat: number): number {
  const cr = pointToColRow(SSA_GRID, lon, lat);
  if (!cr) throw new Error(`point ${lon},${lat} outside the grid`);
  return cr[1] * SSA_GRID.width + cr[0];
}

/** value -> label of classes/<code>.csv, plus the raw rows. */
export function readClassTable(code: string): { labels: Map<number, string>; rows: Record<string, string>[] } {
  const { rows } = readCsv(`classes/${code}.csv`);
  return { labels: new Map(rows.map((r) => [Number(r.value), r.label])), rows };
}
