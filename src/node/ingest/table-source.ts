/**
 * The cell table of an ingest as a header plus a stream of rows, whatever its format, chosen
 * by the file's first bytes (not its extension):
 *
 * - CSV / TSV / semicolon-separated text, UTF-8 or Latin-1 (papaparse over a Node stream,
 *   the delimiter taken from the header line);
 * - Stata `.dta`, formats 113-119 (src/core/formats/dta-read.ts, records read in pieces
 *   through a {@link FileSource});
 * - R `.rds` (and the first object of an `.rda`/`.RData`), serialization versions 2 and 3,
 *   gzip-compressed (saveRDS's default) or not (src/core/formats/rds-read.ts). R writes a
 *   data frame column after column and its names last, so the columns are spilled to a
 *   temporary file as they are decompressed (doubles as Float64, integers, logicals and
 *   factor codes as Int32, text as Int32 ids into a per-column dictionary), then rows are
 *   produced from the spill in blocks with buffers of about 32 MB. bzip2 and xz .rds files
 *   are refused with the R command that re-saves them with gzip: no maintained npm package
 *   decompresses them as a stream.
 *
 * Rows are arrays of text (CSV, string variables) and numbers (binary numeric columns; NaN
 * is missing). `textColumns` turns numbers into text (the key and coordinate columns the
 * checks read as text); `labelColumns` gives, for a `.dta` variable with a value label, the
 * label text instead of the code.
 */
import { closeSync, createReadStream, openSync, readSync, statfsSync, writeSync } from 'node:fs';
import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import Papa from 'papaparse';
import { IndapiError, throwIfAborted } from '../../core/errors';
import { openDta, type DtaFile } from '../../core/formats/dta-read';
import { readRdsTable, type RColumn } from '../../core/formats/rds-read';
import { FileSource } from '../file-source';
import { InputDecoder, decodeWhole, utf16Of } from './text';

/** A cell of a table row: text, or a number (NaN: missing) from a binary table. */
export type TableCell = string | number;

/** Format of a table, from its first bytes. */
export type TableFormat = 'text' | 'dta' | 'rds' | 'rds-gzip' | 'bzip2' | 'xz' | 'zip';

/** An opened table (see the module comment). */
export interface TableSource {
  /** The format found. */
  format: TableFormat;
  /** Column names. */
  header: string[];
  /** File size, bytes. */
  totalBytes: number;
  /** Value labels of `.dta` variables, by column index. */
  valueLabels: Map<number, Map<number, string>>;
  /** Bytes of the file consumed so far (for progress). */
  bytesRead(): number;
  /**
   * The data rows (the header excluded), once.
   * @param opts columns to give as text; `.dta` columns to give as value-label text
   * @throws IndapiError UNPARSABLE (truncated binary data), ABORTED; Error from the CSV stream
   */
  rows(opts: { textColumns: number[]; labelColumns: Set<number> }, signal?: AbortSignal): AsyncIterable<TableCell[]>;
  /** Text encoding used (CSV: as detected while reading; binary formats: "utf8"). */
  encoding(): { mode: 'utf8' | 'latin1'; switchedAt: number };
  /** The CSV decoder's "mixed encodings" message, when it stopped the stream. */
  decodeError(): string | null;
  /** Removes temporary files and closes the file. */
  close(): Promise<void>;
}

/** Options of {@link openTable}. */
export interface OpenTableOptions {
  /** Folder under which a temporary spill folder may be made (.rds); default the OS temp folder. */
  spillParent?: string;
  /** Aborts. */
  signal?: AbortSignal;
  /** Progress while an .rds is decompressed and spilled: compressed bytes read. */
  onProgress?: (bytes: number) => void;
  /** Longest row of a text table, characters (default {@link MAX_ROW_CHARS}). */
  maxRowChars?: number;
  /** Free bytes of a folder's file system (default `fs.statfs`; tests inject a small disk). */
  freeBytes?: (dir: string) => number;
}

/** Bytes kept free beside the spill of an .rds table: 64 MiB. */
export const SPILL_RESERVE_BYTES = 64 << 20;

/** Free bytes an unprivileged process may write in `dir`'s file system (`statfs`: available blocks x block size); Infinity when unknown. */
export function freeBytesOf(dir: string): number {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return Infinity;
  }
}

/**
 * Format of a table from its first bytes: gzip (1f 8b: an .rds), bzip2 ("BZh"), xz
 * (fd "7zXZ" 00), zip ("PK"), R serialization ("X\n", "B\n", "A\n", "RDX2\n", "RDX3\n"),
 * Stata ("<stata_dta>" or a format byte 113-115 then byte order 1/2 and file type 1),
 * else text.
 */
export function sniffTableFormat(b: Uint8Array): TableFormat {
  const s = String.fromCharCode(...b.subarray(0, 16));
  if (b[0] === 0x1f && b[1] === 0x8b) return 'rds-gzip';
  if (s.startsWith('BZh')) return 'bzip2';
  if (b[0] === 0xfd && s.slice(1, 6) === '7zXZ\0') return 'xz';
  if (s.startsWith('PK\u0003\u0004')) return 'zip';
  if (/^(X|B|A)\n/.test(s) || /^RDX[23]\n/.test(s)) return 'rds';
  if (s.startsWith('<stata_dta>')) return 'dta';
  if ([113, 114, 115].includes(b[0]) && (b[1] === 1 || b[1] === 2) && b[2] === 1) return 'dta';
  return 'text';
}

const unreadable = (msg: string): never => {
  throw new IndapiError('UNPARSABLE', msg);
};

const textOf = (x: TableCell): string => (typeof x === 'string' ? x : x !== x ? '' : String(x));

/**
 * Opens a table, reading its header (and, for .rds, spilling its columns).
 * @param path the table file
 * @param opts spill folder, signal, progress
 * @returns the table
 * @throws IndapiError UNPARSABLE with a message naming the file and the problem (bad or
 *   truncated binary data, bzip2/xz compression, a zip archive); IO when it cannot be read;
 *   ABORTED
 */
export async function openTable(path: string, opts: OpenTableOptions = {}): Promise<TableSource> {
  const name = basename(path);
  let size: number;
  let first: Uint8Array;
  try {
    size = (await stat(path)).size;
    const fh = await open(path, 'r');
    try {
      const b = Buffer.alloc(64);
      const { bytesRead } = await fh.read(b, 0, 64, 0);
      first = b.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw new IndapiError('IO', `Cannot read input: ${(e as Error).message}`);
  }
  const utf16 = utf16Of(first);
  if (utf16) unreadable(`The table ${name} is ${utf16} text; re-save it as UTF-8 (in Excel: "CSV UTF-8"; in R: data.table::fwrite).`);
  const format = sniffTableFormat(first);
  const ext = (/\.([A-Za-z]+)$/.exec(name)?.[1] ?? '').toLowerCase();
  const resave = 'In R: saveRDS(readRDS("<file>"), "<file>") re-saves it with gzip (the default), or data.table::fwrite(readRDS("<file>"), "<file>.csv") writes a CSV.';
  if (format === 'bzip2' || format === 'xz') {
    unreadable(`The table ${name} is ${format === 'bzip2' ? 'bzip2' : 'xz'}-compressed (saveRDS(compress = "${format}")); only gzip-compressed or uncompressed .rds files are read. ${resave}`);
  }
  if (format === 'zip') unreadable(`The table ${name} is a zip archive; unzip it and pass the table inside.`);
  if (format === 'text' && ['dta', 'rds', 'rda', 'rdata'].includes(ext)) {
    unreadable(`The table ${name} has the extension .${ext} but is not a${ext === 'dta' ? ' Stata .dta file (it does not start with <stata_dta> or a format byte 113-115)' : 'n R data file (it does not start with gzip or R serialization bytes)'}.`);
  }
  if (format === 'dta') return openDtaTable(path, name, size, opts.signal);
  if (format === 'rds' || format === 'rds-gzip') return openRdsTable(path, name, size, format === 'rds-gzip', opts);
  return openTextTable(path, size, opts.maxRowChars);
}

async function readHeaderLine(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let pos = 0;
    const max = 16 * 1024 * 1024;
    while (pos < max) {
      const buf = Buffer.alloc(65536);
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      const b = buf.subarray(0, bytesRead);
      const nl = b.indexOf(0x0a);
      if (nl >= 0) {
        chunks.push(b.subarray(0, nl));
        return decodeWhole(Buffer.concat(chunks)).text.replace(/\r$/, '');
      }
      chunks.push(b);
      pos += bytesRead;
    }
    return decodeWhole(Buffer.concat(chunks)).text.replace(/\r$/, '');
  } finally {
    await fh.close();
  }
}

/** Bytes read from a text table per step (a string of about this many characters is parsed at once). */
export const TEXT_CHUNK_BYTES = 1 << 20;

/** Longest row (characters) of a text table before the read stops with a clear message. */
export const MAX_ROW_CHARS = 64 << 20;

/** Newline of a text table from its first bytes: "\r\n", "\r" (old Mac) or "\n". */
export function guessNewline(head: string): '\n' | '\r\n' | '\r' {
  const n = head.indexOf('\n');
  if (n > 0 && head[n - 1] === '\r') return '\r\n';
  if (n < 0 && head.includes('\r')) return '\r';
  return '\n';
}

async function openTextTable(path: string, size: number, maxRowChars = MAX_ROW_CHARS): Promise<TableSource> {
  const name = basename(path);
  const line = await readHeaderLine(path);
  const delimiter = (line.match(/\t/g)?.length ?? 0) > (line.match(/,/g)?.length ?? 0) ? '\t' : line.includes(';') && !line.includes(',') ? ';' : ',';
  const hp = Papa.parse<string[]>(line, { delimiter });
  const header = (hp.data[0] ?? []).map((h) => h.trim());
  const decoder = new InputDecoder();
  let decodeError: string | null = null;
  let done = 0;
  let fh: FileHandle | null = null;
  return {
    format: 'text', header, totalBytes: size, valueLabels: new Map(),
    bytesRead: () => done,
    encoding: () => ({ mode: decoder.mode, switchedAt: decoder.switchedAt }),
    decodeError: () => decodeError,
    close: async () => {
      const f = fh;
      fh = null;
      await f?.close().catch(() => undefined);
    },
    async *rows(_opts, signal) {
      // Pull-driven: read a chunk, decode it, parse the complete rows of (carry + chunk) with
      // papaparse's own Parser (which knows whether the text ends inside a quoted field: the
      // incomplete last row is left out and its start is the returned cursor), carry the rest.
      // No stream and no back-pressure, so no chunk is ever parsed twice (issue 15 item 2).
      fh = await open(path, 'r');
      const buf = Buffer.allocUnsafe(TEXT_CHUNK_BYTES);
      let parser: Papa.Parser | null = null;
      let carry = '';
      let first = true;
      const decode = (f: () => string): string => {
        try {
          return f();
        } catch (e) {
          decodeError = (e as Error).message;
          throw e;
        }
      };
      for (;;) {
        throwIfAborted(signal);
        const h = fh;
        if (!h) return;
        const { bytesRead } = await h.read(buf, 0, buf.length, done);
        done += bytesRead;
        const last = bytesRead === 0;
        const text = last ? decode(() => decoder.end()) : decode(() => decoder.write(buf.subarray(0, bytesRead)));
        const input = carry + text;
        parser ??= new Papa.Parser({ delimiter, newline: guessNewline(input) });
        const res = parser.parse(input, 0, !last) as { data: string[][]; meta: { cursor: number } };
        carry = last ? '' : input.slice(res.meta.cursor);
        if (carry.length > maxRowChars) {
          unreadable(`The table ${name} has a row longer than ${Math.round(maxRowChars / 2 ** 20)} MB near byte ${done} (an unclosed quote, or no line breaks); it cannot be read as a table.`);
        }
        for (const row of res.data) {
          if (first) {
            first = false; // the header, read above
            continue;
          }
          yield row;
        }
        if (last) return;
      }
    },
  };
}

async function openDtaTable(path: string, name: string, size: number, signal?: AbortSignal): Promise<TableSource> {
  const src = new FileSource(path);
  let dta: DtaFile;
  try {
    dta = await openDta(src, `The table ${name}`, signal);
  } catch (e) {
    await src.close();
    throw e;
  }
  const valueLabels = new Map<number, Map<number, string>>();
  dta.variables.forEach((v, i) => {
    const l = v.labelName ? dta.valueLabels.get(v.labelName) : undefined;
    if (l) valueLabels.set(i, l);
  });
  let done = dta.dataOffset;
  return {
    format: 'dta', header: dta.variables.map((v) => v.name), totalBytes: size, valueLabels,
    bytesRead: () => done,
    encoding: () => ({ mode: 'utf8', switchedAt: -1 }),
    decodeError: () => null,
    close: () => src.close(),
    async *rows(opts, signal) {
      try {
        for await (const row of dta.rows({ labelColumns: opts.labelColumns, signal, onBytes: (n) => (done = dta.dataOffset + n) })) {
          for (const i of opts.textColumns) row[i] = textOf(row[i]);
          yield row;
        }
      } finally {
        await src.close();
      }
    },
  };
}

/** One spilled .rds column. */
interface Spilled {
  kind: RColumn['kind'];
  offset: number;
  /** Text of ids (string columns: id 0 is NA; factors: levels, code 1 = index 0). */
  dict?: string[];
}

const NA_INT = -2147483648;

async function openRdsTable(path: string, name: string, size: number, gzip: boolean, opts: OpenTableOptions): Promise<TableSource> {
  let dir: string;
  try {
    dir = await mkdtemp(join(opts.spillParent ?? tmpdir(), `.${basename(path)}.rds-`));
  } catch {
    dir = await mkdtemp(join(tmpdir(), 'indapi3-rds-'));
  }
  const spillPath = join(dir, 'columns');
  let fd = openSync(spillPath, 'w+');
  const cleanup = async () => {
    if (fd >= 0) closeSync(fd);
    fd = -1;
    await rm(dir, { recursive: true, force: true });
  };
  const cols: Spilled[] = [];
  let pos = 0;
  const room = (opts.freeBytes ?? freeBytesOf)(dir) - SPILL_RESERVE_BYTES;
  const put = (a: Float64Array | Int32Array) => {
    const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    if (pos + u.length > room) {
      unreadable(`The table ${name} needs more than ${Math.round((pos + u.length) / 2 ** 20)} MB of temporary space beside the output folder, and only ${Math.max(0, Math.round((room + SPILL_RESERVE_BYTES) / 2 ** 20))} MB are free there (${SPILL_RESERVE_BYTES / 2 ** 20} MB are kept free); free some space or pass a smaller table.`);
    }
    for (let o = 0; o < u.length; ) o += writeSync(fd, u, o, Math.min(u.length - o, 1 << 26), pos + o);
    pos += u.length;
  };
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  let lastReport = 0;
  file.on('data', () => {
    const now = Date.now();
    if (opts.onProgress && now - lastReport > 1000) {
      lastReport = now;
      opts.onProgress(file.bytesRead);
    }
  });
  const onAbort = () => file.destroy(new IndapiError('ABORTED', 'The ingest was aborted.'));
  opts.signal?.addEventListener('abort', onAbort);
  const stream: Readable = gzip ? file.pipe(createGunzip()) : file;
  if (gzip) file.on('error', (e) => stream.destroy(e));
  const chunks = (async function* () {
    try {
      for await (const c of stream) yield c as Uint8Array;
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if (code.startsWith('Z_') || /unexpected end of file|incorrect header check|invalid/i.test((e as Error).message)) {
        unreadable(`The table ${name} is not a readable R data file: its gzip data are truncated or corrupt (${(e as Error).message}).`);
      }
      throw e;
    }
  })();
  let info;
  try {
    info = await readRdsTable(chunks, {
      what: `The table ${name}`,
      signal: opts.signal,
      onColumn: (_i, c) => {
        const s: Spilled = { kind: c.kind, offset: pos };
        if (c.kind === 'double') put(c.values);
        else if (c.kind === 'integer' || c.kind === 'logical') put(c.values);
        else if (c.kind === 'factor') {
          put(c.codes);
          s.dict = c.levels;
        } else {
          const ids = new Int32Array(c.values.length);
          const dict = new Map<string, number>();
          const keys = [''];
          for (let i = 0; i < ids.length; i++) {
            const v = c.values[i];
            if (v === null || v === '') continue;
            let id = dict.get(v);
            if (id === undefined) {
              id = keys.length;
              keys.push(v);
              dict.set(v, id);
            }
            ids[i] = id;
          }
          put(ids);
          s.dict = keys;
        }
        cols.push(s);
      },
    });
  } catch (e) {
    file.destroy();
    await cleanup();
    throwIfAborted(opts.signal);
    throw e;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    file.destroy();
  }
  opts.onProgress?.(size);
  const nrow = info.rows;
  let emitted = 0;
  return {
    format: gzip ? 'rds-gzip' : 'rds', header: info.names, totalBytes: size, valueLabels: new Map(),
    bytesRead: () => (nrow ? Math.round((size * emitted) / nrow) : size),
    encoding: () => ({ mode: 'utf8', switchedAt: -1 }),
    decodeError: () => null,
    close: cleanup,
    async *rows(opts2, signal) {
      const K = cols.length;
      const B = Math.max(64, Math.min(8192, Math.floor((32 << 20) / Math.max(1, K * 8))));
      const bufs = cols.map((c) => (c.kind === 'double' ? new Float64Array(B) : new Int32Array(B)));
      const text = new Uint8Array(K);
      for (const i of opts2.textColumns) text[i] = 1;
      try {
        for (let r0 = 0; r0 < nrow; r0 += B) {
          throwIfAborted(signal);
          const n = Math.min(B, nrow - r0);
          for (let j = 0; j < K; j++) {
            const a = bufs[j];
            const w = a.BYTES_PER_ELEMENT;
            const u = new Uint8Array(a.buffer, 0, n * w);
            let got = 0;
            while (got < u.length) {
              const k = readSync(fd, u, got, u.length - got, cols[j].offset + r0 * w + got);
              if (k === 0) throw new IndapiError('IO', `The spill file of ${name} ends early.`);
              got += k;
            }
          }
          for (let r = 0; r < n; r++) {
            const row: TableCell[] = new Array(K);
            for (let j = 0; j < K; j++) {
              const c = cols[j];
              const x = bufs[j][r];
              let v: TableCell;
              if (c.kind === 'double') v = x;
              else if (c.kind === 'string') v = c.dict![x];
              else if (c.kind === 'factor') v = x === NA_INT ? '' : (c.dict![x - 1] ?? '');
              else v = x === NA_INT ? NaN : x;
              row[j] = text[j] ? textOf(v) : v;
            }
            emitted++;
            yield row;
          }
        }
      } finally {
        await cleanup();
      }
    },
  };
}
