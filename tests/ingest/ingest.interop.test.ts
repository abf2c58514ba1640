/**
 * Table ingest on the committed fixture (tests/ingest/fixtures: cells.fixture.csv and
 * vi.fixture.csv, MADE-UP values, 36 cells of Côte d'Ivoire and São Tomé with invented admin
 * units whose names repeat across ADM1 units and countries) and on tables derived from it by
 * the tests (one per validation finding). Checks the bundle (COGs by GDAL's validator, class
 * tables, vi.csv with every original field, iso.csv, manifest sha256), the engine's answers
 * by ADM1 and ADM2 against R data.table computing the catalog's formulas over the same table,
 * Latin-1 and TSV input, every finding, --drop-invalid, nothing written on failure, the
 * header check before any row, and the CLI's exit codes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { ingestTable, type IngestResult } from '../../src/node/ingest';
import { main } from '../../src/node/ingest/cli';
import type { CategoryRow } from '../../src/core/api';
import { SSA_GRID, type GridDef } from '../../src/core/grid';

const FIX = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const TABLE = join(FIX, 'cells.fixture.csv');
const VI = join(FIX, 'vi.fixture.csv');
const tableText = readFileSync(TABLE, 'utf8');
const viText = readFileSync(VI, 'utf8');

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-test-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Writes a table / catalog variant and ingests it into a fresh folder. */
async function run(table: string | Buffer, vi: string = viText, opts: { dropInvalid?: boolean; ext?: string; grid?: GridDef } = {}): Promise<IngestResult & { folder: string }> {
  const k = ++n;
  const t = join(dir, `t${k}.${opts.ext ?? 'csv'}`);
  const c = join(dir, `vi${k}.csv`);
  writeFileSync(t, table);
  writeFileSync(c, vi);
  const folder = join(dir, `out${k}`);
  const res = await ingestTable({ table: t, catalog: c, out: folder, dropInvalid: opts.dropInvalid, grid: opts.grid });
  return { ...res, folder };
}

const lines = tableText.trimEnd().split('\n');
const withRow = (i: number, f: (fields: string[]) => string[]) =>
  lines.map((l, k) => (k === i ? f(l.split(',')).join(',') : l)).join('\n') + '\n';
const kinds = (r: IngestResult) => r.findings.filter((f) => f.severity !== 'info').map((f) => f.kind);

describe('ingest of the fixture table', () => {
  let res: IngestResult & { folder: string };
  beforeAll(async () => {
    res = await run(tableText);
  });

  it('writes a complete bundle', () => {
    expect(res.ok, JSON.stringify(res.findings)).toBe(true);
    expect(res.rows).toBe(36);
    expect([...res.layers].sort()).toEqual(
      ['ADM0_NAME', 'ADM1_NAME_ALT', 'ADM2_NAME_ALT', 'AEZ_FIX', 'AREA_FIX', 'HARV_FIX', 'ISO3', 'POP_FIX', 'PROD_FIX', 'RAIN_FIX', 'SOIL_FIX'].sort(),
    );
    expect(readdirSync(join(res.folder, 'cog')).sort()).toEqual(res.layers.map((c) => `${c}.tif`).sort());
    // the helper column AREA_FIX (named by RAIN_FIX's formula, no record) is noted
    expect(res.findings.find((f) => f.kind === 'helper-column')?.column).toBe('AREA_FIX');
    expect(readdirSync(dirname(res.folder)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('writes COGs that GDAL validates, typed as the catalog says', () => {
    const files = readdirSync(join(res.folder, 'cog')).map((f) => join(res.folder, 'cog', f));
    const script = [
      'import sys, json',
      'from osgeo_utils.samples.validate_cloud_optimized_geotiff import validate',
      'print(json.dumps({p.rsplit("/", 1)[-1]: validate(p, full_check=True)[1] for p in sys.argv[1:]}))',
    ].join('\n');
    const v = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, ...files], { encoding: 'utf8' })) as Record<string, string[]>;
    for (const [f, errors] of Object.entries(v)) expect({ f, errors }).toEqual({ f, errors: [] });
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', join(res.folder, 'cog', 'SOIL_FIX.tif')], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }));
    expect(info.bands[0].type).toBe('Byte');
    expect(info.bands[0].noDataValue).toBe(255);
    expect(info.metadata.IMAGE_STRUCTURE.LAYOUT).toBe('COG');
    const vi = Papa.parse<Record<string, string>>(readFileSync(join(res.folder, 'vi.csv'), 'utf8'), { header: true }).data;
    // continuous values stored exactly: integers x 10^k with a GDAL scale (src/core/ingest/decimals.ts)
    expect(vi.find((r) => r.varCode === 'POP_FIX')).toMatchObject({ dataType: 'Int16', noData: '-32768', classTable: '' });
    const rain = JSON.parse(execFileSync('gdalinfo', ['-json', join(res.folder, 'cog', 'RAIN_FIX.tif')], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }));
    expect(rain.bands[0]).toMatchObject({ type: 'Int16', noDataValue: -32768, scale: 0.1, offset: 0 });
  });

  it('keeps every original catalog field and adds the bundle fields; helpers are unpublished', () => {
    const parsed = Papa.parse<Record<string, string>>(readFileSync(join(res.folder, 'vi.csv'), 'utf8'), { header: true, skipEmptyLines: true });
    const inFields = Papa.parse(viText, { header: true }).meta.fields!;
    expect(parsed.meta.fields!.slice(0, inFields.length)).toEqual(inFields);
    for (const f of ['dataType', 'noData', 'classTable', 'license']) expect(parsed.meta.fields).toContain(f);
    const rain = parsed.data.find((r) => r.varCode === 'RAIN_FIX')!;
    expect(rain.dKeywords).toBe('fixture; made-up');
    expect(rain.isDomain).toBe('FALSE');
    expect(parsed.data.find((r) => r.varCode === 'AREA_FIX')!.published).toBe('FALSE');
    expect(parsed.data.map((r) => r.varCode)).not.toContain('X');
  });

  it('builds class tables: text classes sorted, numeric codes kept, ADM keys whole', () => {
    const csv = (c: string) => Papa.parse<Record<string, string>>(readFileSync(join(res.folder, 'classes', `${c}.csv`), 'utf8'), { header: true, skipEmptyLines: true });
    const aez = csv('AEZ_FIX');
    expect(aez.data.map((r) => [r.value, r.label])).toEqual([['1', 'Humid forest'], ['2', 'Semi-arid'], ['3', 'Sub-humid']]);
    expect(csv('SOIL_FIX').data.map((r) => [r.value, r.label, r.color])).toEqual([['1', 'Sandy', '#f6e8c3'], ['2', 'Loamy', '#d8b365'], ['5', 'Clay', '#8c510a']]);
    const adm1 = csv('ADM1_NAME_ALT');
    expect(adm1.meta.fields).toEqual(['value', 'label', 'color', 'iso3']);
    // "Nord" in two countries: two units
    expect(adm1.data.filter((r) => r.label === 'Nord').map((r) => r.iso3)).toEqual(['CIV', 'STP']);
    const adm2 = csv('ADM2_NAME_ALT');
    expect(adm2.meta.fields).toEqual(['value', 'label', 'color', 'iso3', 'adm1']);
    expect(adm2.data.filter((r) => r.label === 'Centre').map((r) => `${r.iso3}/${r.adm1}`)).toEqual(['CIV/Lagunes', 'CIV/Nord', 'STP/Nord', 'STP/São Tomé']);
    expect(csv('ISO3').data.map((r) => [r.label, r.name])).toEqual([['CIV', "Côte d'Ivoire"], ['STP', 'São Tomé and Príncipe']]);
  });

  it('writes iso.csv with the countries present and regions limited to them', () => {
    const iso = Papa.parse<Record<string, string>>(readFileSync(join(res.folder, 'iso.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
    expect(iso.map((r) => [r.code, r.type, r.members, r.cells])).toEqual([
      ['CIV', 'country', 'CIV', '24'], ['STP', 'country', 'STP', '12'],
      ['SSA', 'region', 'CIV|STP', '36'], ['MAF', 'region', 'STP', '12'], ['WAF', 'region', 'CIV', '24'],
    ]);
    expect(iso[0].name).toBe("Côte d'Ivoire");
  });

  it('lists every file in manifest.json with its size and sha256', () => {
    const man = JSON.parse(readFileSync(join(res.folder, 'manifest.json'), 'utf8'));
    // the window of the table's cells (Côte d'Ivoire and São Tomé), on the 5-arc-minute lattice
    expect(man.grid).toMatchObject({ cellSizeDeg: 1 / 12, colOffset: (man.grid.xmin + 180) * 12, rowOffset: (90 - man.grid.ymax) * 12 });
    expect(man.grid.width).toBeLessThan(1080);
    const paths = man.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('vi.csv');
    expect(paths).toContain('README.md');
    expect(paths).not.toContain('.spill');
    for (const f of man.files) {
      const b = readFileSync(join(res.folder, f.path));
      expect(f.sha256).toBe(createHash('sha256').update(b).digest('hex'));
      expect(f.bytes).toBe(b.length);
    }
    expect(readFileSync(join(res.folder, 'README.md'), 'utf8')).toMatch(/Ingested on \d{4}-\d\d-\d\d .* from the table `t\d+\.csv`/);
  });

  it('serves it: category leaves out the helper, describe shows the original fields, getLayer by ADM1 and ADM2 matches R data.table', async () => {
    const e = createNodeEngine(res.folder);
    try {
      const cat = (await e.category({})) as CategoryRow[] | { data: CategoryRow[] };
      const rows = Array.isArray(cat) ? cat : cat.data;
      const codes = rows.map((r) => r.code);
      expect(codes).toContain('RAIN_FIX');
      expect(codes).not.toContain('AREA_FIX');
      const d = (await e.describe({ var: ['RAIN_FIX'] })) as Array<Record<string, string>> | { data: Array<Record<string, string>> };
      const drec = (Array.isArray(d) ? d : d.data)[0];
      expect(drec.tbName).toBe('fixture');
      expect(drec.dKeywords).toBe('fixture; made-up');

      const R = String.raw`
suppressMessages(library(data.table))
a <- commandArgs(trailingOnly = TRUE)
dt <- fread(a[1], encoding = "UTF-8", na.strings = "")
vi <- fread(a[2], encoding = "UTF-8", na.strings = c("", "NA"), colClasses = "character")
vi <- vi[!is.na(aggFunR) & aggFunR != "NA"]
res <- list()
for (by in list(c("ISO3", "ADM1_NAME_ALT"), c("ISO3", "ADM1_NAME_ALT", "ADM2_NAME_ALT"))) for (k in seq_len(nrow(vi))) {
  f <- parse(text = vi$aggFunR[k])[[1]]
  r <- dt[, .(value = as.character(eval(f))), by = by]
  r[, code := vi$varCode[k]]
  r[, level := length(by) - 1]
  res[[length(res) + 1]] <- r
}
fwrite(rbindlist(res, fill = TRUE), a[3])
`;
      writeFileSync(join(dir, 'ref.R'), R);
      execFileSync('Rscript', [join(dir, 'ref.R'), TABLE, VI, join(dir, 'ref.csv')], { env: { ...process.env, LC_ALL: 'C.UTF-8', LC_COLLATE: 'C' }, stdio: 'pipe' });
      const ref = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'ref.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
      const catalog = await e.loadCatalog();
      const vars = ['POP_FIX', 'PROD_FIX', 'HARV_FIX', 'RAIN_FIX', 'AEZ_FIX', 'SOIL_FIX'];
      let compared = 0;
      for (const level of [1, 2]) {
        const by = level === 1 ? 'ADM1_NAME_ALT' : 'ADM2_NAME_ALT';
        const got = (await e.getLayer({ var: vars, by: [by] })) as Array<Record<string, string | number | null>>;
        const key = (r: Record<string, unknown>) => (level === 1 ? `${r.ISO3}|${r.ADM1_NAME_ALT}` : `${r.ISO3}|${r.ADM1_NAME_ALT}|${r.ADM2_NAME_ALT}`);
        const byKey = new Map(got.filter((r) => r[by]).map((r) => [key(r), r]));
        const mine = ref.filter((r) => r.level === String(level));
        expect(new Set(mine.map(key)).size).toBe(byKey.size);
        expect(byKey.size).toBe(level === 1 ? 4 : 6 + 0 * 1);
        for (const r of mine) {
          const row = byKey.get(key(r));
          expect(row, key(r)).toBeDefined();
          const rec = catalog.need(r.code);
          const v = row![r.code];
          const where = `${r.code} by ${by} in ${key(r)}`;
          if (rec.type === 'class') {
            const vals = rec.classBreaks.split('|');
            const want = rec.classBreaks && vals.includes(r.value) ? rec.classLabels.split('|')[vals.indexOf(r.value)] : r.value;
            expect(v, where).toBe(want);
          } else if (v === null || v === undefined) {
            expect(['', 'NA', 'NaN', '0'].includes(r.value), `${where}: engine none, R ${r.value}`).toBe(true);
          } else {
            expect(Math.abs(Number(v) - Number(r.value)), `${where}: ${v} vs R ${r.value}`).toBeLessThanOrEqual(10 ** -rec.dec / 2 + 1e-6 * Math.abs(Number(r.value)));
          }
          compared++;
        }
      }
      expect(compared).toBe((4 + 6) * vars.length);
    } finally {
      await e.store.close();
    }
  }, 60_000);
});

describe('input encodings and formats', () => {
  it('reads a Latin-1 table to the same names (Côte d\'Ivoire, São Tomé)', async () => {
    const res = await run(readFileSync(join(FIX, 'cells-latin1.fixture.csv')));
    expect(res.ok).toBe(true);
    expect(res.findings.find((f) => f.kind === 'encoding')?.message).toMatch(/Latin-1/);
    const iso = readFileSync(join(res.folder, 'classes', 'ISO3.csv'), 'utf8');
    expect(iso).toContain("Côte d'Ivoire");
    expect(readFileSync(join(res.folder, 'classes', 'ADM1_NAME_ALT.csv'), 'utf8')).toContain('São Tomé');
  });

  it('reads a TSV table', async () => {
    const tsv = Papa.unparse(Papa.parse<string[]>(tableText, { skipEmptyLines: true }).data, { delimiter: '\t', newline: '\n' });
    const res = await run(tsv, viText, { ext: 'tsv' });
    expect(res.ok, JSON.stringify(res.findings)).toBe(true);
    expect(res.rows).toBe(36);
  });

  it('stops on mixed encodings (UTF-8 text, then a Latin-1 byte)', async () => {
    const bad = Buffer.concat([Buffer.from(tableText, 'utf8'), Buffer.from('4304822,"CIV","C\xf4te","Lagunes","Centre",-4.79167,6.95833,1,1,1,1,1,,\n', 'latin1')]);
    const res = await run(bad);
    expect(res.ok).toBe(false);
    expect(res.findings.find((f) => f.kind === 'encoding')?.severity).toBe('fatal');
    expect(existsSync(res.folder)).toBe(false);
  });

  it('stops on mixed encodings the other way round (Latin-1 text, then UTF-8: issue 25 item 4)', async () => {
    const bad = Buffer.concat([readFileSync(join(FIX, 'cells-latin1.fixture.csv')), Buffer.from('4304822,"CIV","Côte d\'Ivoire","Lagunes","Centre",-4.79167,6.95833,1,1,1,1,1,,\n', 'utf8')]);
    const res = await run(bad);
    expect(res.ok).toBe(false);
    expect(res.findings.find((f) => f.kind === 'encoding')).toMatchObject({ severity: 'fatal', message: expect.stringMatching(/mixes encodings \(mixed encodings: valid UTF-8 text at byte \d+ after Latin-1 text/) });
    expect(existsSync(res.folder)).toBe(false);
  });
});

describe('validation findings', () => {
  it('a bad header fails before any row is read, even on a 4 GB file', async () => {
    const p = join(dir, 'huge.csv');
    writeFileSync(p, '"CELL","ISO3","X","Y","POP_FIX"\n');
    truncateSync(p, 4 * 1024 ** 3); // sparse: 4 GB of NUL bytes after the header
    const res = await ingestTable({ table: p, catalog: VI, out: join(dir, 'huge-out') });
    rmSync(p);
    expect(res.ok).toBe(false);
    expect(res.rows).toBe(0);
    expect(res.findings.filter((f) => f.kind === 'header' && f.column).map((f) => f.column)).toEqual(['CELL5M', 'ADM0_NAME', 'ADM1_NAME_ALT']);
    expect(existsSync(join(dir, 'huge-out'))).toBe(false);
  });

  it('colliding column codes (also by case) are fatal', async () => {
    const t = lines.map((l, i) => l + (i === 0 ? ',"pop_fix"' : ',1')).join('\n') + '\n';
    const res = await run(t, viText, { dropInvalid: true });
    expect(res.ok).toBe(false);
    expect(res.findings.find((f) => f.kind === 'code-collision')?.message).toMatch(/POP_FIX and pop_fix differ only in case/);
  });

  it('colliding record codes: droppable, the first record kept', async () => {
    const dup = viText.trimEnd().split('\n');
    const rec = dup.find((l) => l.startsWith('"POP_FIX"'))!.replace('"POP_FIX"', '"pop_fix"');
    const vi = [...dup, rec].join('\n') + '\n';
    expect(kinds(await run(tableText, vi))).toEqual(['code-collision']);
    const ok = await run(tableText, vi, { dropInvalid: true });
    expect(ok.ok).toBe(true);
    expect(ok.dropped.map((f) => f.kind)).toEqual(['code-collision']);
  });

  it('a formula naming a column not in the table: droppable, the record dropped', async () => {
    const vi = viText.replace('sum(RAIN_FIX*AREA_FIX, na.rm=TRUE) / sum(AREA_FIX, na.rm=TRUE)', 'sum(RAIN_FIX*AREA_NOPE, na.rm=TRUE) / sum(AREA_NOPE, na.rm=TRUE)');
    const res = await run(tableText, vi);
    expect(res.ok).toBe(false);
    expect(res.findings.find((f) => f.kind === 'formula-column')).toMatchObject({ code: 'RAIN_FIX', field: 'aggFunR' });
    expect(existsSync(res.folder)).toBe(false);
    const dropped = await run(tableText, vi, { dropInvalid: true });
    expect(dropped.ok).toBe(true);
    expect(dropped.layers).not.toContain('RAIN_FIX');
    // AREA_FIX is then used by no formula: reported, not written
    expect(dropped.layers).not.toContain('AREA_FIX');
    expect(dropped.findings.find((f) => f.kind === 'unused-column')?.column).toBe('AREA_FIX');
    expect(readFileSync(join(dropped.folder, 'README.md'), 'utf8')).toMatch(/formula-column: The formula of RAIN_FIX/);
  });

  it('a column without a record that no formula uses is reported and not written', async () => {
    const t = lines.map((l, i) => l + (i === 0 ? ',"EXTRA_FIX"' : ',3')).join('\n') + '\n';
    const res = await run(t);
    expect(res.ok).toBe(true);
    expect(res.findings.find((f) => f.kind === 'unused-column')).toMatchObject({ column: 'EXTRA_FIX', severity: 'info' });
    expect(res.layers).not.toContain('EXTRA_FIX');
  });

  it('mixed types in a column: droppable, the column and the formulas using it dropped', async () => {
    const res = await run(withRow(5, (f) => { f[7] = '"lots"'; return f; }));
    expect(kinds(res)).toEqual(['mixed-types', 'formula-column']);
    expect(res.findings[res.findings.length - 2]).toMatchObject({ column: 'AREA_FIX', row: 5 });
    const d = await run(withRow(5, (f) => { f[7] = '"lots"'; return f; }), viText, { dropInvalid: true });
    expect(d.layers).not.toContain('AREA_FIX');
    expect(d.layers).not.toContain('RAIN_FIX');
    expect(d.layers).toContain('POP_FIX');
  });

  it('duplicate cells: droppable, the later row dropped', async () => {
    const t = tableText + lines[3] + '\n';
    const res = await run(t);
    expect(res.findings.filter((f) => f.severity !== 'info')).toEqual([expect.objectContaining({ kind: 'duplicate-cell', row: 37, message: expect.stringMatching(/already given by row 3/) })]);
    const d = await run(t, viText, { dropInvalid: true });
    expect(d.ok).toBe(true);
    const iso = readFileSync(join(d.folder, 'iso.csv'), 'utf8');
    expect(iso).toMatch(/^CIV,.*,24$/m);
  });

  it('CELL5M not matching X/Y: droppable; X/Y rounded to 3 decimals tolerated', async () => {
    const off = await run(withRow(2, (f) => { f[5] = (Number(f[5]) + 0.01).toFixed(5); return f; }));
    expect(kinds(off)).toEqual(['cell-xy-mismatch']);
    expect(off.findings.find((f) => f.kind === 'cell-xy-mismatch')).toMatchObject({ row: 2, column: 'CELL5M' });
    const rounded = await run(lines.map((l, i) => (i === 0 ? l : l.split(',').map((v, k) => (k === 5 || k === 6 ? Number(v).toFixed(3) : v)).join(','))).join('\n') + '\n');
    expect(rounded.ok, JSON.stringify(rounded.findings)).toBe(true);
  });

  it('cells off the global grid or outside a fixed bundle window: droppable', async () => {
    const offGrid = await run(withRow(4, (f) => { f[0] = '9999999999'; return f; }));
    expect(kinds(offGrid)).toEqual(['off-grid']);
    // a cell in Europe (global row 300, column 2200): on the grid, outside the window
    const cell = 300 * 4320 + 2200;
    const europe = withRow(4, (f) => { f[0] = String(cell); f[5] = (-180 + 2200.5 / 12).toFixed(5); f[6] = (90 - 300.5 / 12).toFixed(5); return f; });
    const outside = await run(europe, viText, { grid: SSA_GRID });
    expect(kinds(outside)).toEqual(['outside-window']);
    expect(outside.findings.find((f) => f.kind === 'outside-window')!.message).toMatch(/outside the bundle window \[-26, -35, 64, 28\]/);
    // without a fixed window the bundle's window grows to hold it
    const grown = await run(europe);
    expect(grown.ok, JSON.stringify(grown.findings)).toBe(true);
    expect(JSON.parse(readFileSync(join(grown.folder, 'manifest.json'), 'utf8')).grid).toMatchObject({ rowOffset: 300 });
    const d = await run(withRow(4, (f) => { f[0] = '9999999999'; return f; }), viText, { dropInvalid: true });
    expect(d.ok).toBe(true);
    expect(d.dropped).toEqual([expect.objectContaining({ kind: 'off-grid', row: 4 })]);
  });

  it('CELL5M is decimal digits only: hex, blanks and exponents are off the grid (issue 25 item 6)', async () => {
    for (const id of ['0x41AF34', ' 4304820', '4304820e0', '4304820.0', '+4304820']) {
      const res = await run(withRow(1, (f) => { f[0] = id; return f; }));
      expect(kinds(res), id).toEqual(['off-grid']);
    }
  });

  it('C0 control characters in text are fatal, naming file, row and column (issue 25 item 6)', async () => {
    const nul = await run(withRow(3, (f) => { f[3] = '"Lag\0unes"'; return f; }), viText, { dropInvalid: true });
    expect(nul.ok).toBe(false);
    expect(nul.findings.find((f) => f.kind === 'control-character')).toMatchObject({ severity: 'fatal', row: 3, column: 'ADM1_NAME_ALT', file: expect.stringMatching(/^t\d+\.csv$/), message: expect.stringMatching(/row 3, column ADM1_NAME_ALT: .*U\+0000/) });
    const esc = await run(withRow(5, (f) => { f[12] = '"Humid\x1b[31m forest"'; return f; }));
    expect(esc.findings.find((f) => f.kind === 'control-character')).toMatchObject({ row: 5, column: 'AEZ_FIX', message: expect.stringContaining('U+001B') });
    expect(existsSync(esc.folder)).toBe(false);
  });

  it('numeric class values without a label: droppable, the column dropped', async () => {
    const res = await run(withRow(6, (f) => { f[13] = '7'; return f; }));
    expect(res.findings.find((f) => f.kind === 'class-without-label')).toMatchObject({ column: 'SOIL_FIX', message: expect.stringMatching(/class value\(s\) 7 have no label/) });
    const d = await run(withRow(6, (f) => { f[13] = '7'; return f; }), viText, { dropInvalid: true });
    expect(d.layers).not.toContain('SOIL_FIX');
    expect(d.layers).toContain('AEZ_FIX');
  });

  it('an unreadable catalog is fatal', async () => {
    const res = await run(tableText, viText.replace('"POP_FIX"', '"POP_FIX'));
    expect(res.ok).toBe(false);
    expect(res.findings[0]).toMatchObject({ kind: 'unreadable', severity: 'fatal' });
  });

  it('refuses a non-empty --out without force and replaces it with force', async () => {
    const out = join(dir, 'full');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'x');
    await expect(ingestTable({ table: TABLE, catalog: VI, out })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    expect(readFileSync(join(out, 'keep.txt'), 'utf8')).toBe('x');
    const res = await ingestTable({ table: TABLE, catalog: VI, out, force: true });
    expect(res.ok).toBe(true);
    expect(existsSync(join(out, 'keep.txt'))).toBe(false);
    expect(existsSync(join(out, 'vi.csv'))).toBe(true);
  });
});

describe('CLI exit codes', () => {
  const quiet = async (argv: string[]) => {
    const w = process.stderr.write.bind(process.stderr);
    const o = process.stdout.write.bind(process.stdout);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      return await main(argv);
    } finally {
      process.stderr.write = w;
      process.stdout.write = o;
    }
  };

  it('0 ok, 1 findings, 2 usage, 3 I/O', async () => {
    expect(await quiet(['--table', TABLE, '--catalog', VI, '--out', join(dir, 'cli-ok'), '--quiet'])).toBe(0);
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, withRow(3, (f) => { f[0] = '-1'; return f; }));
    expect(await quiet(['--table', bad, '--catalog', VI, '--out', join(dir, 'cli-bad'), '--quiet'])).toBe(1);
    expect(existsSync(join(dir, 'cli-bad'))).toBe(false);
    expect(await quiet(['--table', bad, '--catalog', VI, '--out', join(dir, 'cli-drop'), '--quiet', '--drop-invalid'])).toBe(0);
    expect(await quiet(['--table', TABLE, '--catalog', VI])).toBe(2);
    expect(await quiet(['--table', TABLE, '--catalog', VI, '--out', join(dir, 'cli-ok')])).toBe(2);
    expect(await quiet(['--bogus'])).toBe(2);
    expect(await quiet(['--table', join(dir, 'nope.csv'), '--catalog', VI, '--out', join(dir, 'cli-io')])).toBe(3);
  });
});

describe('catalog text with spreadsheet formulas or HTML (issue 25 item 7)', () => {
  it('vi.csv neutralises formulas (pandas reads the leading \'), the engine reads the text back as given, the README shows HTML as text', async () => {
    const evil = Papa.parse<Record<string, string>>(viText, { header: true, skipEmptyLines: true });
    const rain = evil.data.find((r) => r.varCode === 'RAIN_FIX')!;
    rain.varLabel = '=HYPERLINK("http://evil.example","click")';
    rain.varDesc = "=cmd|' /C calc'!A0";
    rain.sources = '<img src=x onerror=alert(1)>';
    rain.citation = '@SUM(1)';
    const res = await run(withRow(4, (f) => { f[0] = '<img src=x onerror=alert(2)>'; return f; }), Papa.unparse(evil.data, { newline: '\n', columns: evil.meta.fields }) + '\n', { dropInvalid: true });
    expect(res.ok, JSON.stringify(res.findings)).toBe(true);
    const script = 'import pandas as pd, sys, json; d = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False); r = d[d.varCode == "RAIN_FIX"].iloc[0]; print(json.dumps({k: r[k] for k in ["varLabel", "varDesc", "sources", "citation"]}))';
    const read = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, join(res.folder, 'vi.csv')], { encoding: 'utf8' })) as Record<string, string>;
    expect(read).toEqual({ varLabel: `'${rain.varLabel}`, varDesc: `'${rain.varDesc}`, sources: rain.sources, citation: "'@SUM(1)" });
    const e = createNodeEngine(res.folder);
    try {
      const d = (await e.describe({ var: ['RAIN_FIX'] })) as Array<Record<string, string>> | { data: Array<Record<string, string>> };
      expect((Array.isArray(d) ? d : d.data)[0]).toMatchObject({ Label: rain.varLabel, Description: rain.varDesc, Sources: rain.sources });
    } finally {
      await e.store.close();
    }
    const readme = readFileSync(join(res.folder, 'README.md'), 'utf8');
    expect(readme).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(readme).not.toContain('<img');
  });
});

describe('catalog: extra fields and published', () => {
  it('parseVi keeps fields beyond VarRecord; category leaves out published false/FALSE/F/0 only', async () => {
    const { Catalog } = await import('../../src/core/catalog');
    const { parseVi } = await import('../../src/core/bundle');
    const text = 'varCode,varLabel,type,aggFunR,cat1,published,tbName\n' +
      ['A,a,continuous,"sum(A, na.rm=TRUE)",C,TRUE,t1', 'B,b,continuous,"sum(B, na.rm=TRUE)",C,FALSE,t2', 'C,c,continuous,"sum(C, na.rm=TRUE)",C,0,t3',
        'D,d,continuous,"sum(D, na.rm=TRUE)",C,2026-11-21,t4', 'E,e,continuous,"sum(E, na.rm=TRUE)",C,,t5', 'F,f,continuous,"sum(F, na.rm=TRUE)",C,f,t6'].join('\n') + '\n';
    const recs = parseVi(text);
    expect((recs[0] as unknown as Record<string, string>).tbName).toBe('t1');
    const cat = new Catalog(recs, [], async () => []);
    expect(((await cat.category()) as CategoryRow[]).map((r) => r.code)).toEqual(['A', 'D', 'E']);
    expect((await cat.describe(['B']))[0].tbName).toBe('t2');
  });

  it('the embedded bundle (published = dates) keeps every record listed', async () => {
    const { Catalog } = await import('../../src/core/catalog');
    const { parseVi } = await import('../../src/core/bundle');
    const recs = parseVi(readFileSync(join(FIX, '../../../public/data/vi.csv'), 'utf8'));
    const cat = new Catalog(recs, [], async () => []);
    expect(((await cat.category()) as CategoryRow[]).length).toBe(recs.length);
    expect(recs.length).toBeGreaterThan(20);
  });
});
