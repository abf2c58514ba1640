/**
 * Export of a bundle as a CELL5M-style wide table (the original's distribution format, issue 9)
 * and its catalog as an original-style `vi.csv`, so that the ingest can load it again
 * (round trip, issue 9 item 8).
 *
 * Table: header `"CELL5M","ISO3","ADM0_NAME","ADM1_NAME_ALT"[,"ADM2_NAME_ALT"],"X","Y",<codes>`,
 * one row per cell that has an ISO3 (the land cells of the bundle), in CELL5M order (north row
 * first). X/Y are cell centres with 5 decimals; an empty field is NA; strings are quoted.
 * Continuous values are the shortest decimals that read back to the same Float32 sample (Float32
 * layers) or the same double (scaled integer and Float64 layers of an ingested bundle).
 * Class layers: the unit keys (ISO3, ADM0_NAME, ADM1_*, ADM2_*) as their labels; other class
 * layers as their numeric class values when the record's `classBreaks`/`classLabels` list
 * exactly the class table's values and labels (the ingest then keeps the values, so dominant()
 * ties resolve the same), else as their labels. Rows are streamed band by band.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { serialiseVi } from '../../core/bundle/tables-write';
import { IndapiError, throwIfAborted } from '../../core/errors';
import { cellId } from '../../core/grid';
import type { ClassEntry } from '../../core/types';
import { openExportBundle, type BundleLayer } from './bundle-reader';
import { EXTRA_VI_FIELDS, KEY_CODES, valueText as continuousText, ORIGINAL_VI_FIELDS, originalViRow, quote } from './format';

/** How class layers are written. */
export type ClassMode = 'auto' | 'label' | 'code';

/** Options of {@link exportBundle}. */
export interface ExportOptions {
  /** Bundle folder (manifest.json, vi.csv, iso.csv, classes/, cog/). */
  data: string;
  /** Output table path (.csv). */
  out: string;
  /** Output catalog path (original-style vi.csv); none when absent. */
  catalogOut?: string;
  /** Class layers as labels, codes, or (default) codes where the record describes them fully. */
  classes?: ClassMode;
  /** Aborts the export (the partial file is left as is). */
  signal?: AbortSignal;
  /** Progress in rows of the grid done / total. */
  onProgress?: (done: number, total: number) => void;
}

/** What an export wrote. */
export interface ExportResult {
  /** Table rows written (cells). */
  rows: number;
  /** Table header (column names). */
  columns: string[];
  /** Class layer codes written as numeric values. */
  classCodes: string[];
  /** Bytes of the table. */
  bytes: number;
}

/** True when the record's pipe lists give exactly the class table's values and labels. */
function recordDescribesClasses(l: BundleLayer): boolean {
  const r = l.record;
  if (!r || !l.classes?.length) return false;
  const vals = r.classBreaks.split('|').filter((s) => s !== '');
  const labs = r.classLabels.split('|');
  if (vals.length !== l.classes.length || labs.length !== vals.length) return false;
  const byValue = new Map(l.classes.map((c) => [c.value, c.label]));
  return vals.every((v, i) => byValue.get(Number(v)) === labs[i]);
}

function isKey(code: string): boolean {
  return (KEY_CODES as readonly string[]).includes(code) || /^ADM[12]_(NAME|CODE)_ALT$/.test(code);
}

/**
 * Writes the bundle as a CELL5M-style table (and the catalog when asked).
 * @throws IndapiError IO when the bundle cannot be read or has no ISO3 layer; ABORTED on abort
 */
export async function exportBundle(opts: ExportOptions): Promise<ExportResult> {
  const { signal } = opts;
  const b = await openExportBundle(opts.data, { signal });
  try {
    const byCode = new Map(b.layers.map((l) => [l.code, l]));
    if (!byCode.has('ISO3')) throw new IndapiError('IO', `${opts.data} has no ISO3 layer (cog/ISO3.tif with a record): cannot tell land cells.`);
    const keyCols = KEY_CODES.filter((k) => byCode.has(k));
    const valueLayers = b.layers.filter((l) => !(keyCols as string[]).includes(l.code));
    const mode = opts.classes ?? 'auto';
    const asCode = new Set(valueLayers.filter((l) => l.type === 'class' && !isKey(l.code) &&
      (mode === 'code' || (mode === 'auto' && recordDescribesClasses(l)))).map((l) => l.code));
    const columns = ['CELL5M', ...keyCols, 'X', 'Y', ...valueLayers.map((l) => l.code)];
    if (opts.catalogOut) await writeCatalog(b.cat.records, opts.catalogOut);
    await mkdir(dirname(opts.out), { recursive: true });
    const ws = createWriteStream(opts.out);
    const closed = once(ws, 'close');
    let bytes = 0, rows = 0;
    const write = async (s: string) => {
      bytes += Buffer.byteLength(s);
      if (!ws.write(s)) await once(ws, 'drain');
    };
    try {
      await write(columns.map(quote).join(',') + '\n');
      const labelText = (classes: ClassEntry[] | undefined) => {
        const m = new Map<number, string>();
        for (const c of classes ?? []) m.set(c.value, quote(c.label));
        return m;
      };
      const keyText = keyCols.map((k) => labelText(byCode.get(k)!.classes));
      const valueText = valueLayers.map((l) => (l.type === 'class' && !asCode.has(l.code) ? labelText(l.classes) : null));
      const g = b.grid;
      for (let y0 = 0; y0 < g.height; y0 += b.bandRows) {
        throwIfAborted(signal);
        const y1 = Math.min(g.height, y0 + b.bandRows);
        const band = await b.readBand(y0, y1, undefined, signal);
        const iso = band.data.get('ISO3') as Int32Array;
        const keys = keyCols.map((k) => band.data.get(k)!);
        const vals = valueLayers.map((l) => band.data.get(l.code)!);
        let chunk = '';
        for (let r = 0; r < y1 - y0; r++) {
          const row = y0 + r;
          const yText = (g.ymax - (row + 0.5) * g.cellSizeDeg).toFixed(5);
          for (let col = 0; col < g.width; col++) {
            const i = r * g.width + col;
            if (iso[i] < 0) continue;
            let line = String(cellId(g, col, row));
            for (let k = 0; k < keys.length; k++) {
              const v = keys[k][i];
              line += ',' + (v < 0 ? '' : (keyText[k].get(v) ?? quote(String(v))));
            }
            line += ',' + (g.xmin + (col + 0.5) * g.cellSizeDeg).toFixed(5) + ',' + yText;
            for (let k = 0; k < vals.length; k++) {
              const a = vals[k], v = a[i];
              const lt = valueText[k];
              if (a instanceof Int32Array) line += ',' + (v < 0 ? '' : lt ? (lt.get(v) ?? String(v)) : String(v));
              else line += ',' + (v !== v ? '' : continuousText(v));
            }
            chunk += line + '\n';
            rows++;
            if (chunk.length > 1 << 20) {
              await write(chunk);
              chunk = '';
            }
          }
        }
        if (chunk) await write(chunk);
        opts.onProgress?.(y1, g.height);
      }
    } finally {
      ws.end();
      await closed;
    }
    return { rows, columns, classCodes: [...asCode], bytes };
  } finally {
    await b.close();
  }
}

/**
 * Writes the catalog as an original-style vi.csv (every original field, then this project's
 * extra fields; every field quoted), with papaparse.
 * @param records catalog records in order
 * @param path output file
 */
export async function writeCatalog(records: import('../../core/types').VarRecord[], path: string): Promise<void> {
  const fields = [...ORIGINAL_VI_FIELDS, ...EXTRA_VI_FIELDS];
  const csv = serialiseVi(fields, records.map((r, i) => originalViRow(r, i)), { quoteAll: true });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, csv);
}
