/**
 * Ingest benchmark (issue 9 item 6) and the 750-layer bundle (issue 10 item 4).
 *
 *   npx tsx bench/ingest-bench.ts            (also run by `npm run bench`; BENCH_INGEST=0 skips the 750 case)
 *   npx tsx bench/ingest-bench.ts --narrow-only
 *
 * Narrow case (issue 15 item 2): a 303,000 x 9 single-indicator export of MADE-UP values
 * (bench/gen-exports.ts, `YLD_MU..SSA.csv`): the ingest end to end (target 15 s) and the read
 * throughput of the ingest's table reader against `Papa.parse` on the same file held as a
 * string, in the same run (target ratio >= 0.5).
 *   npm run bench:bundle [-- --out bench-out/bundle750]
 *
 * Generates (or reuses, cached under .cache/ingest-bench/ and keyed by the generator's sha256)
 * a table of MADE-UP values, 303,000 cells x 750 columns (bench/gen-table.ts), then runs the
 * ingest in a child process (`ingestTable`, as `npm run ingest` runs it) under /usr/bin/time -v
 * (Debian package `time`): wall time and peak RSS, against the targets (10 minutes, 1.5 GB) and
 * against references measured in the same run on the same file: reading it (`wc -l`), parsing
 * it with papaparse streaming (every field), and R `data.table::fread` (time and peak RSS).
 * `--bundle` only writes the bundle (default bench-out/bundle750): 750 COGs of made-up values on
 * the real grid, for the app's e2e and bench against a large catalog.
 * Options: --rows, --cols (default 303000, 750), --out, --no-fread, --no-parse.
 * `--rds` also ingests the same table saved by R (`fread` then `saveRDS`, gzip; cached next to
 * the CSV) and prints its wall time and peak RSS beside the CSV ingest's (the .rds columns are
 * spilled while decompressed, src/node/ingest/table-source.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Papa from 'papaparse';
import { generateTable } from './gen-table';
import { catalogRecords, generateExports } from './gen-exports';
import { ORIGINAL_VI_FIELDS } from '../src/node/export/format';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const TARGET_S = 600, TARGET_MB = 1536;

/** Wall seconds and peak RSS (MB) of a command run under /usr/bin/time -v. */
interface Measured {
  seconds: number;
  /** User + system CPU seconds (from /usr/bin/time). */
  cpu: number;
  peakMB: number;
  ok: boolean;
  stderr: string;
}

function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Measured {
  const useTime = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = useTime ? spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', env, maxBuffer: 1 << 28, cwd: ROOT })
    : spawnSync(cmd, args, { encoding: 'utf8', env, maxBuffer: 1 << 28, cwd: ROOT });
  const seconds = (performance.now() - t0) / 1000;
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr ?? '');
  const u = /User time \(seconds\): ([\d.]+)/.exec(r.stderr ?? ''), sy = /System time \(seconds\): ([\d.]+)/.exec(r.stderr ?? '');
  const cpu = u && sy ? Number(u[1]) + Number(sy[1]) : NaN;
  return { seconds, cpu, peakMB: m ? Number(m[1]) / 1024 : NaN, ok: r.status === 0, stderr: r.stderr ?? '' };
}

/** The cached generated table (regenerated when the generator changes). */
async function table(rows: number, cols: number): Promise<{ table: string; catalog: string }> {
  const genHash = createHash('sha256').update(readFileSync(join(HERE, 'gen-table.ts'))).digest('hex').slice(0, 12);
  const dir = join(ROOT, '.cache/ingest-bench', `${rows}x${cols}`);
  const stamp = join(dir, 'stamp');
  const want = `${genHash} seed 1`;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== want || !existsSync(join(dir, 'table.csv'))) {
    console.log(`generating ${rows} x ${cols} table of MADE-UP values into ${dir} (a few minutes; cached) ...`);
    rmSync(dir, { recursive: true, force: true });
    const res = await generateTable({ rows, cols, out: dir, seed: 1, data: join(ROOT, 'public/data'),
      onProgress: (d, t) => { if (d % 50000 < 300 || d === t) process.stdout.write(`  ${d}/${t} rows\r`); } });
    process.stdout.write('\n');
    console.log(`  ${res.rows} rows (${res.landRows} land cells + ${res.extraRows} cells around the land), ${(res.bytes / 2 ** 20).toFixed(0)} MB`);
    writeFileSync(stamp, want);
  }
  return { table: join(dir, 'table.csv'), catalog: join(dir, 'vi.csv') };
}

function ingest(t: { table: string; catalog: string }, out: string): Measured {
  return measure(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--ingest-child', out, '--table', t.table, '--catalog', t.catalog]);
}

/** Child mode: the table ingest (ingestTable, as `npm run ingest` runs it), progress lines on stderr. */
async function ingestChild(out: string, table: string, catalog: string): Promise<void> {
  const { ingestTable } = await import('../src/node/ingest');
  let last = 0;
  const res = await ingestTable({ table, catalog, out, force: true, onProgress: (p) => {
    const now = performance.now();
    if (now - last < 15000) return;
    last = now;
    process.stderr.write(`  ingest: ${p.phase} ${p.rows} rows${p.columnsTotal ? `, columns ${p.columnsDone ?? 0}/${p.columnsTotal}` : ''}\n`);
  } });
  if (!res.ok) {
    for (const f of res.findings.filter((x) => x.severity === 'fatal').slice(0, 10)) process.stderr.write(`  fatal: ${f.message}\n`);
    process.exitCode = 1;
  }
  console.log(JSON.stringify({ ok: res.ok, rows: res.rows, layers: res.layers.length, seconds: res.seconds }));
}

/** Child mode: parse the whole file with papaparse streaming, counting fields. */
async function parseOnly(file: string): Promise<void> {
  let rows = 0, fields = 0;
  await new Promise<void>((res, rej) => {
    Papa.parse(createReadStream(file), {
      step: (r: Papa.ParseStepResult<string[]>) => { rows++; fields += r.data.length; },
      complete: () => res(),
      error: (e: Error) => rej(e),
    });
  });
  console.log(JSON.stringify({ rows, fields }));
}

/**
 * Child mode: read throughput of the ingest's table reader (openTable, every row) against
 * `Papa.parse` on the same file already held as a string, alternated 3 times; medians.
 */
async function readCompare(file: string): Promise<void> {
  const { openTable } = await import('../src/node/ingest/table-source');
  const text = readFileSync(file, 'utf8');
  const papa: number[] = [], ours: number[] = [];
  let rows = 0;
  for (let k = 0; k < 3; k++) {
    let t = performance.now();
    const data = Papa.parse<string[]>(text).data;
    papa.push((performance.now() - t) / 1000);
    rows = data.filter((r) => r.length > 1 || r[0] !== '').length - 1;
    t = performance.now();
    const tab = await openTable(file);
    let n = 0;
    for await (const row of tab.rows({ textColumns: [], labelColumns: new Set() })) n += row.length > 0 ? 1 : 0;
    await tab.close();
    ours.push((performance.now() - t) / 1000);
    if (n < rows) throw new Error(`the reader gave ${n} rows, papaparse ${rows}`);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[1];
  console.log(JSON.stringify({ rows, papaS: med(papa), readS: med(ours) }));
}

/** The narrow single-indicator case (issue 15 item 2): targets 15 s end to end, read throughput >= 0.5 x Papa.parse on the string. */
async function narrowBench(): Promise<boolean> {
  const dir = join(ROOT, '.cache/ingest-bench/exports-303000');
  const genHash = createHash('sha256').update(readFileSync(join(HERE, 'gen-exports.ts'))).digest('hex').slice(0, 12);
  const stamp = join(dir, 'stamp');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== genHash) {
    console.log(`generating the 303,000-cell single-indicator exports of MADE-UP values into ${dir} (cached) ...`);
    rmSync(dir, { recursive: true, force: true });
    await generateExports({ out: dir, rows: 303000 });
    const recs = catalogRecords().filter((r) => r.varCode === 'YLD_MU' || r.varCode === 'AREA_MU');
    writeFileSync(join(dir, 'vi-YLD_MU.csv'), Papa.unparse({ fields: [...ORIGINAL_VI_FIELDS], data: recs.map((r) => ORIGINAL_VI_FIELDS.map((f) => r[f])) }, { newline: '\n' }) + '\n');
    writeFileSync(stamp, genHash);
  }
  const file = join(dir, 'YLD_MU..SSA.csv');
  const mb = statSync(file).size / 1e6;
  console.log(`\ningest bench, narrow: ${file} (303,000 x 9, quoted strings, MADE-UP values), ${mb.toFixed(1)} MB`);
  const rc = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--read-compare', file], { encoding: 'utf8', cwd: ROOT });
  const r = JSON.parse(rc.stdout.trim().split('\n').pop() || '{}') as { papaS: number; readS: number };
  const ing = ingest({ table: file, catalog: join(dir, 'vi-YLD_MU.csv') }, join(ROOT, 'bench-out/ingest-narrow'));
  if (!ing.ok) console.error(`narrow ingest FAILED:\n${ing.stderr.split('\n').slice(-25).join('\n')}`);
  const ratio = r.papaS / r.readS;
  console.log(`  Papa.parse on the string: ${r.papaS.toFixed(2)} s (${(mb / r.papaS).toFixed(1)} MB/s); ingest reader (openTable rows): ${r.readS.toFixed(2)} s (${(mb / r.readS).toFixed(1)} MB/s)`);
  console.log(`  read throughput ratio ours / Papa.parse string = ${ratio.toFixed(2)} (target >= 0.5)`);
  console.log(`  ingest end to end: ${ing.seconds.toFixed(1)} s wall, ${ing.cpu.toFixed(1)} s CPU, peak ${ing.peakMB.toFixed(0)} MB, ${(mb / ing.seconds).toFixed(1)} MB/s (target <= 15 s)`);
  return ing.ok;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: {
    'read-compare': { type: 'string' }, 'narrow-only': { type: 'boolean' }, 'no-narrow': { type: 'boolean' },
    rows: { type: 'string', default: '303000' }, cols: { type: 'string', default: '750' }, out: { type: 'string' },
    bundle: { type: 'boolean' }, rds: { type: 'boolean' }, 'no-fread': { type: 'boolean' }, 'no-parse': { type: 'boolean' }, 'parse-only': { type: 'string' },
    'ingest-child': { type: 'string' }, table: { type: 'string' }, catalog: { type: 'string' },
  } });
  if (values['parse-only']) return parseOnly(values['parse-only']);
  if (values['read-compare']) return readCompare(values['read-compare']);
  if (!values.bundle && !values['ingest-child'] && !values['no-narrow']) {
    if (!(await narrowBench())) process.exitCode = 1;
    if (values['narrow-only']) return;
  }
  if (values['ingest-child']) return ingestChild(values['ingest-child'], values.table!, values.catalog!);
  const rows = Number(values.rows), cols = Number(values.cols);
  const t = await table(rows, cols);
  const mb = statSync(t.table).size / 2 ** 20;
  if (values.bundle) {
    const out = resolve(values.out ?? join(ROOT, 'bench-out/bundle750'));
    console.log(`ingesting into ${out} ...`);
    const m = ingest(t, out);
    if (!m.ok) throw new Error(`ingest failed:\n${m.stderr.split('\n').filter((l) => !/^\s+\w[\w ()/%:-]*: /.test(l)).slice(-15).join('\n')}`);
    console.log(`bundle of ${cols} layers of MADE-UP values on the real grid: ${out} (${m.seconds.toFixed(0)} s, peak RSS ${m.peakMB.toFixed(0)} MB)`);
    return;
  }
  const out = join(ROOT, 'bench-out/ingest-bench');
  console.log(`\ningest bench: ${rows} x ${cols} table of MADE-UP values, ${mb.toFixed(0)} MB (${t.table})`);
  const wc = measure('wc', ['-l', t.table]);
  const parse = values['no-parse'] ? null : measure(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--parse-only', t.table]);
  const fread = values['no-fread'] ? null : measure('Rscript', ['-e', `suppressMessages(library(data.table)); d <- fread("${t.table}", na.strings = ""); cat(nrow(d), ncol(d), "\\n")`]);
  const ing = ingest(t, out);
  if (!ing.ok) console.error(`ingest FAILED:\n${ing.stderr.split('\n').slice(-25).join('\n')}`);
  let rds: Measured | null = null;
  if (values.rds) {
    const file = t.table.replace(/\.csv$/, '.rds');
    if (!existsSync(file) || statSync(file).mtimeMs < statSync(t.table).mtimeMs) {
      console.log(`saving the table as ${file} with R (fread, saveRDS; cached) ...`);
      execFileSync('Rscript', ['-e', `suppressMessages(library(data.table)); saveRDS(fread("${t.table}", na.strings = ""), "${file}.part")`], { stdio: 'inherit' });
      execFileSync('mv', [`${file}.part`, file]);
    }
    rds = ingest({ table: file, catalog: t.catalog }, `${out}-rds`);
    if (!rds.ok) console.error(`ingest of the .rds FAILED:\n${rds.stderr.split('\n').slice(-25).join('\n')}`);
  }
  const pad = (s: string, n: number) => s.padEnd(n);
  const f = (x: number | undefined, d = 1) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d)).padStart(9);
  console.log(`${pad('run', 44)}${'wall s'.padStart(9)}${'CPU s'.padStart(9)}${'peak MB'.padStart(9)}`);
  const line = (name: string, x: Measured) => console.log(`${pad(name, 44)}${f(x.seconds)}${f(x.cpu)}${f(x.peakMB, 0)}`);
  line('ingest (child process)', ing);
  if (rds) line(`ingest of the same table as .rds (${(statSync(t.table.replace(/\.csv$/, '.rds')).size / 2 ** 20).toFixed(0)} MB)`, rds);
  line('reference: wc -l', wc);
  if (parse) line('reference: papaparse stream, parse only', parse);
  if (fread) line('reference: R data.table::fread', fread);
  console.log(`(load average now ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')} on ${(await import('node:os')).cpus().length} cores: wall times include waiting for other processes, CPU times do not)`);
  console.log(`\ningest vs targets (issue 9): time ${ing.seconds.toFixed(0)} s / ${TARGET_S} s = ${(ing.seconds / TARGET_S).toFixed(2)}; ` +
    `peak RSS ${ing.peakMB.toFixed(0)} MB / ${TARGET_MB} MB = ${(ing.peakMB / TARGET_MB).toFixed(2)} (both <= 1 to pass)`);
  const rel = [`wc -l ${(ing.seconds / wc.seconds).toFixed(1)}x`];
  if (parse) rel.push(`parse only ${(ing.seconds / parse.seconds).toFixed(2)}x wall, ${(ing.cpu / parse.cpu).toFixed(2)}x CPU`);
  if (fread) rel.push(`fread ${(ing.seconds / fread.seconds).toFixed(2)}x wall, ${(ing.cpu / fread.cpu).toFixed(2)}x CPU, ${(ing.peakMB / fread.peakMB).toFixed(2)}x memory`);
  console.log(`ingest vs references in this run: ${rel.join('; ')}; throughput ${(mb / ing.seconds).toFixed(1)} MB/s`);
  if (!ing.ok || (rds && !rds.ok)) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => { console.error((e as Error).message); process.exitCode = 1; });
}

/** Runs the ingest bench from `npm run bench` (bench/run.ts): the narrow case always, the 303,000 x 750 case unless BENCH_INGEST=0. */
export function runIngestBench(): void {
  const narrowOnly = process.env.BENCH_INGEST === '0' ? ['--narrow-only'] : [];
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...narrowOnly], { stdio: 'inherit', cwd: ROOT });
}
