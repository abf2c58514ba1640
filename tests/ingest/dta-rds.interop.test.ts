/**
 * Ingest of Stata .dta and R .rds tables: the committed fixture table
 * (tests/ingest/fixtures/cells.fixture.csv, MADE-UP values) is written by real R
 * (tests/ingest/make-dta-rds.R: haven::write_dta 114/115/117/118/119, strL, value labels,
 * tagged missing values; saveRDS of a data.frame and a data.table, versions 2 and 3, gzip and
 * uncompressed, a factor, an ALTREP wrapper) and each copy is ingested; the bundle must be
 * byte-identical to the one ingested from the CSV (COGs, class tables, iso.csv, vi.csv).
 * Invalid, truncated and bzip2/xz files give a clear fatal finding and write nothing.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { readRdsTable, type RColumn } from '../../src/core/formats/rds-read';
import { ingestTable, type IngestResult } from '../../src/node/ingest';
import { main } from '../../src/node/ingest/cli';

const HERE = dirname(fileURLToPath(import.meta.url));
const TABLE = join(HERE, 'fixtures', 'cells.fixture.csv');
const VI = join(HERE, 'fixtures', 'vi.fixture.csv');

let dir: string;
let src: string;
let ref: IngestResult & { folder: string };
let n = 0;

async function ingest(table: string): Promise<IngestResult & { folder: string }> {
  const folder = join(dir, `out${++n}`);
  const res = await ingestTable({ table, catalog: VI, out: folder });
  return { ...res, folder };
}

/** Every bundle file that does not name the input file, as bytes (vi.csv with the table name replaced). */
function bundleFiles(folder: string, tableName: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const sub of ['cog', 'classes']) {
    for (const f of readdirSync(join(folder, sub)).sort()) out.set(`${sub}/${f}`, readFileSync(join(folder, sub, f)).toString('base64'));
  }
  out.set('iso.csv', readFileSync(join(folder, 'iso.csv'), 'utf8'));
  out.set('vi.csv', readFileSync(join(folder, 'vi.csv'), 'utf8').split(tableName).join('<table>'));
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-dta-rds-'));
  src = join(dir, 'src');
  execFileSync('mkdir', ['-p', src]);
  execFileSync('Rscript', [join(HERE, 'make-dta-rds.R'), TABLE, src], { stdio: 'pipe' });
  copyFileSync(TABLE, join(src, 'cells.csv'));
  ref = await ingest(join(src, 'cells.csv'));
  expect(ref.ok, JSON.stringify(ref.findings)).toBe(true);
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SAME_AS_CSV = [
  ['v114.dta', 'Stata 114 (Stata 10), old binary layout'],
  ['v115.dta', 'Stata 115 (Stata 12)'],
  ['v117.dta', 'Stata 117 (Stata 13)'],
  ['v118.dta', 'Stata 118 (Stata 14)'],
  ['v119.dta', 'Stata 119 (Stata 15, wide)'],
  ['strl117.dta', 'Stata 117 with the admin names and the class text as strL'],
  ['strl118.dta', 'Stata 118 with the admin names and the class text as strL'],
  ['labels118.dta', 'Stata 118 with value labels (a class without record labels takes the label text; one with record labels keeps its codes) and .a missing values'],
  ['df3.rds', 'saveRDS of a data.frame (version 3, gzip)'],
  ['df2.rds', 'saveRDS(version = 2) of a data.frame'],
  ['df3-plain.rds', 'saveRDS(compress = FALSE) of a data.frame'],
  ['dt3.rds', 'saveRDS of a data.table (.internal.selfref external pointer)'],
  ['dt2.rds', 'saveRDS(version = 2) of a data.table'],
  ['factor-wrap3.rds', 'a factor class column and an ALTREP wrap_real column'],
] as const;

describe('ingest of .dta and .rds copies of the fixture table', () => {
  for (const [file, what] of SAME_AS_CSV) {
    it(`${file}: ${what} gives the same bundle as the CSV`, async () => {
      const res = await ingest(join(src, file));
      expect(res.ok, JSON.stringify(res.findings)).toBe(true);
      expect(res.rows).toBe(ref.rows);
      expect([...res.layers].sort()).toEqual([...ref.layers].sort());
      expect(res.findings.map((f) => f.kind)).toEqual(ref.findings.map((f) => f.kind));
      const a = bundleFiles(res.folder, file);
      const b = bundleFiles(ref.folder, 'cells.csv');
      expect([...a.keys()]).toEqual([...b.keys()]);
      for (const [k, v] of b) expect(a.get(k), k).toBe(v);
      expect(readFileSync(join(res.folder, 'README.md'), 'utf8')).toContain(`\`${file}\``);
      expect(readdirSync(dir).filter((f) => f.includes('.rds-') || f.includes('.tmp-'))).toEqual([]); // no spill folder left
    });
  }

  it('chooses the format by the first bytes, not the extension (an .rds named .csv, a .dta named .txt)', async () => {
    copyFileSync(join(src, 'dt3.rds'), join(src, 'renamed-rds.csv'));
    copyFileSync(join(src, 'v118.dta'), join(src, 'renamed-dta.txt'));
    for (const f of ['renamed-rds.csv', 'renamed-dta.txt']) {
      const res = await ingest(join(src, f));
      expect(res.ok, JSON.stringify(res.findings)).toBe(true);
      expect(bundleFiles(res.folder, f).get('cog/RAIN_FIX.tif')).toBe(bundleFiles(ref.folder, 'cells.csv').get('cog/RAIN_FIX.tif'));
    }
  });
});

describe('R-written ALTREP columns and native (little-endian) serialization', () => {
  for (const [file, gz] of [['altrep3.rds', true], ['altrep3-native.rds', false]] as const) {
    it(`${file}: compact_intseq, deferred_string (integers and doubles as R prints them)`, async () => {
      const cols: RColumn[] = [];
      const s = createReadStream(join(src, file));
      const t = await readRdsTable((gz ? s.pipe(createGunzip()) : s) as AsyncIterable<Uint8Array>, { what: file, onColumn: (i, c) => void (cols[i] = c) });
      expect(t.names).toEqual(['id', 's', 'd', 's2']);
      expect(cols[0]).toEqual({ kind: 'integer', values: new Int32Array([1, 2, 3, 4, 5]) });
      expect(cols[1]).toEqual({ kind: 'string', values: ['11', '12', '13', '14', '15'] });
      expect(cols[2]).toEqual({ kind: 'double', values: new Float64Array([1.5, NaN, 3, 4, 5]) });
      expect(cols[3]).toEqual({ kind: 'string', values: ['0.1', '2', null, '1e+06', '0.333333333333333'] });
    });
  }
});

describe('unreadable .dta and .rds tables: a fatal finding naming the file, nothing written', () => {
  const bad = async (file: string, pattern: RegExp) => {
    const res = await ingest(join(src, file));
    expect(res.ok).toBe(false);
    const f = res.findings.find((x) => x.severity === 'fatal');
    expect(f?.kind).toBe('unreadable');
    expect(f?.message).toContain(file);
    expect(f?.message).toMatch(pattern);
    expect(existsSync(res.folder)).toBe(false);
    expect(readdirSync(dir).filter((x) => x.includes('.rds-') || x.includes('.tmp-'))).toEqual([]);
  };
  const truncated = (from: string, to: string, frac: number) => {
    copyFileSync(join(src, from), join(src, to));
    truncateSync(join(src, to), Math.floor(statSync(join(src, from)).size * frac));
  };

  it('bzip2 and xz .rds: names the compression and how to re-save with gzip', async () => {
    await bad('df3.bz2.rds', /bzip2-compressed.*saveRDS\(readRDS/);
    await bad('df3.xz.rds', /xz-compressed.*saveRDS\(readRDS/);
  });
  it('truncated files', async () => {
    truncated('v118.dta', 'cut118.dta', 0.6);
    await bad('cut118.dta', /truncated/);
    truncated('v114.dta', 'cut114.dta', 0.6);
    await bad('cut114.dta', /truncated/);
    truncated('df3.rds', 'cut-gz.rds', 0.5);
    await bad('cut-gz.rds', /gzip data are truncated or corrupt/);
    truncated('df3-plain.rds', 'cut-plain.rds', 0.5);
    await bad('cut-plain.rds', /ends early/);
  });
  it('R objects that are not data frames', async () => {
    await bad('vector.rds', /not a data\.frame/);
    await bad('list.rds', /not data\.frame/);
  });
  it('a file with a .dta or .rds extension that is neither', async () => {
    writeFileSync(join(src, 'text.dta'), 'CELL5M,ISO3\n1,KEN\n');
    await bad('text.dta', /not a Stata \.dta file/);
    writeFileSync(join(src, 'junk.rds'), Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]));
    await bad('junk.rds', /not an R data file/);
  });
  it('the CLI exits with 1 (findings) on an unreadable table and says why on stderr', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
    let code: number;
    try {
      code = await main(['--table', join(src, 'df3.xz.rds'), '--catalog', VI, '--out', join(dir, 'cli-out'), '--quiet']);
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/fatal +unreadable: The table df3\.xz\.rds is xz-compressed/);
    expect(existsSync(join(dir, 'cli-out'))).toBe(false);
  });
});
