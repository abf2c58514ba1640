/**
 * `npm run ingest` / `indapi3-ingest`: command line of the table ingest
 * ({@link ingestTable}). Progress on stderr (a live line on a terminal, a plain line every
 * 10 s otherwise); findings on stderr; exit codes as in {@link EXIT}.
 */
import { parseArgs } from 'node:util';
import { isIndapiError } from '../../core/errors';
import { ingestTable, type Finding, type IngestProgress } from './index';
import { GDAL_USAGE, runGdalOptions, wantsGdal } from './gdal-cli';
import { gridFromBoundsDeg, SSA_ALL_GRID, type GridDef } from '../../core/grid';

/** Exit codes of the CLI. */
export const EXIT = { OK: 0, FINDINGS: 1, USAGE: 2, IO: 3 } as const;

/** Text of --help. */
export const HELP = `Usage: npm run ingest -- --table <file> [--table <file> ...] --catalog <vi.csv> --out <folder> [--window data|ssa|<bbox>] [--drop-invalid] [--force]
       indapi3-ingest --table <file> --catalog <vi.csv> --out <folder> [options]

Turns a CELL5M table (CSV or TSV, UTF-8 or Latin-1; Stata .dta 113-119; R .rds from saveRDS,
gzip or uncompressed, of a data.frame or data.table; the format is taken from the first bytes;
header "CELL5M","ISO3","ADM0_NAME",
"ADM1_NAME_ALT","ADM2_NAME_ALT","X","Y",<codes...>) and its catalog (vi.csv) into a bundle
folder the server (DATA_DIR=<folder> npm run serve) and the app read.

Options:
  --table <file>     the cell table (.csv, .tsv, .dta, .rds); repeat it, or name a folder, to join
                     several tables on CELL5M (key columns must agree; a cell missing from a
                     table is NA there)
  --catalog <file>   the catalog, vi.csv with the original's fields (varCode, aggFunR, type, ...)
  --out <folder>     the bundle folder to create (written to a temporary folder, renamed at the end)
  --window <w>       the bundle window: 'data' (default: the bounding box of the table's cells on the
                     5-arc-minute lattice), 'ssa' (fixed [-26, -48, 73, 28]: every territory of the 49
                     countries, outer islands included) or 'xmin,ymin,xmax,ymax' in degrees (snapped
                     outward to the lattice); cells outside a fixed window are findings
  --drop-invalid     write the valid rest when rows, columns or records are invalid; list what was dropped
  --force            replace a non-empty --out
  --quiet            no progress
  --json             print the result (findings included) as JSON on stdout
  -h, --help         this text

Rasters and boundaries, added to the bundle at --out (GDAL's gdal-bin required):
${GDAL_USAGE}

Exit codes:
  0  ok, bundle written
  1  validation findings stopped the run (nothing written); see the findings on stderr
  2  usage error (bad arguments, --out not empty without --force)
  3  I/O error (a file cannot be read or written)
`;

/**
 * Text safe for a terminal: control characters (C0 but tab and line feed, DEL, C1) written as
 * `\xNN`, so bytes of a garbage header never reach the terminal raw (issue 15 item 7).
 */
export function printable(s: string): string {
  return s.replace(/[^\t\n\u0020-\u007e\u00a0-\uffff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function fmtFinding(f: Finding): string {
  const at = [f.file ? `file ${f.file}` : '', f.row !== undefined ? `row ${f.row}` : '', f.column ? `column ${f.column}` : '', f.code && !f.column ? `record ${f.code}` : '', f.field ? `field ${f.field}` : '']
    .filter(Boolean)
    .join(', ');
  return printable(`${f.severity.padEnd(9)} ${f.kind}${at ? ` (${at})` : ''}: ${f.message}`);
}

let writeStart: number | undefined;

function progressLine(p: IngestProgress): string {
  const mb = p.bytes / 1e6;
  const rate = p.seconds > 0 ? mb / p.seconds : 0;
  if (p.phase === 'read') {
    const eta = rate > 0 ? (p.totalBytes / 1e6 - mb) / rate : 0;
    return `reading: ${p.rows.toLocaleString('en')} rows, ${p.columnsTotal} layer columns, ${mb.toFixed(0)}/${(p.totalBytes / 1e6).toFixed(0)} MB, ${rate.toFixed(1)} MB/s, ETA ${Math.round(eta)} s`;
  }
  writeStart ??= p.seconds;
  const spent = p.seconds - writeStart;
  const eta = p.columnsDone > 0 && spent > 0 ? ((p.columnsTotal - p.columnsDone) * spent) / p.columnsDone : 0;
  return `writing: ${p.columnsDone}/${p.columnsTotal} layers, ${p.rows.toLocaleString('en')} rows, ${p.seconds.toFixed(0)} s elapsed, ETA ${Math.round(eta)} s`;
}

/**
 * The bundle window of `--window`: undefined for 'data' (or none), SSA_ALL_GRID for 'ssa',
 * else four numbers xmin,ymin,xmax,ymax in degrees snapped outward to the lattice.
 * @throws Error naming --window when the value is none of these
 */
export function parseWindow(w: string | undefined): GridDef | undefined {
  if (w === undefined || w === 'data') return undefined;
  if (w === 'ssa') return SSA_ALL_GRID;
  const v = w.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
  if (v.length === 4 && v.every(Number.isFinite) && v[0] < v[2] && v[1] < v[3] && v[0] >= -180 && v[2] <= 180 && v[1] >= -90 && v[3] <= 90) {
    return gridFromBoundsDeg(v[0], v[1], v[2], v[3]);
  }
  throw new Error(`--window must be 'data', 'ssa' or xmin,ymin,xmax,ymax in degrees (west < east, south < north), got '${w}'.`);
}

/**
 * Runs the CLI.
 * @param argv arguments after the script name
 * @returns the exit code
 */
export async function main(argv: string[]): Promise<number> {
  if (wantsGdal(argv)) return runGdalOptions(argv);
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        table: { type: 'string', multiple: true }, catalog: { type: 'string' }, out: { type: 'string' }, window: { type: 'string' },
        'drop-invalid': { type: 'boolean' }, force: { type: 'boolean' }, quiet: { type: 'boolean' }, json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${HELP}`);
    return EXIT.USAGE;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return EXIT.OK;
  }
  if (!args.table?.length || !args.catalog || !args.out) {
    process.stderr.write(`--table, --catalog and --out are required.\n\n${HELP}`);
    return EXIT.USAGE;
  }
  let grid: GridDef | undefined;
  try {
    grid = parseWindow(args.window);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${HELP}`);
    return EXIT.USAGE;
  }
  const tty = process.stderr.isTTY;
  let last = 0;
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  try {
    const res = await ingestTable(
      {
        table: args.table, catalog: args.catalog, out: args.out, dropInvalid: args['drop-invalid'], force: args.force, grid,
        onProgress: args.quiet ? undefined : (p) => {
          if (tty) process.stderr.write(`\r\x1b[K${progressLine(p)}`);
          else if (p.seconds - last >= 10) {
            last = p.seconds;
            process.stderr.write(`${progressLine(p)}\n`);
          }
        },
      },
      ac.signal,
    );
    if (tty && !args.quiet) process.stderr.write('\n');
    for (const f of res.findings) process.stderr.write(`${fmtFinding(f)}\n`);
    if (args.json) process.stdout.write(JSON.stringify(res, null, 2) + '\n');
    if (!res.ok) {
      process.stderr.write(`Nothing written: ${res.findings.filter((f) => f.severity !== 'info').length} finding(s) stop the run${res.findings.some((f) => f.severity === 'droppable') ? ' (--drop-invalid writes the valid rest)' : ''}.\n`);
      return EXIT.FINDINGS;
    }
    process.stderr.write(`Wrote ${res.out}: ${res.layers.length} layers from ${res.rows.toLocaleString('en')} rows in ${res.seconds.toFixed(1)} s${res.dropped.length ? `; dropped: ${res.dropped.length} finding(s), listed above and in README.md` : ''}.\n`);
    return EXIT.OK;
  } catch (e) {
    if (tty && !args.quiet) process.stderr.write('\n');
    process.stderr.write(`${printable((e as Error).message)}\n`);
    if (isIndapiError(e) && e.code === 'BAD_ARGUMENT') return EXIT.USAGE;
    return EXIT.IO;
  }
}

if (process.argv[1] && /ingest[\\/]cli\.[cm]?[jt]s$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
