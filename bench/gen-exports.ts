/**
 * Generator of MADE-UP tables shaped like the original service's own exports (issue 15,
 * "real-shaped test material"), for the ingest tests and `npm run bench`:
 *
 *   npx tsx bench/gen-exports.ts --out <dir> [--rows 303000] [--islands] [--seed 1]
 *
 * Writes into `<dir>` (every value MADE UP, seeded PRNG, deterministic; the folder gets a
 * `MADE-UP-VALUES.txt` note and every catalog record says "made-up values" in varLabel,
 * varDesc, caveat and sources):
 * - `YLD_MU..SSA.csv`: the region export of one indicator, 7 key columns
 *   `CELL5M,X,Y,ISO3,ADM0_NAME,ADM1_NAME_ALT,ADM2_NAME_ALT` (the order of the original's
 *   exports; strings quoted) then `YLD_MU` (sparse: about 85 % of the cells empty) and its
 *   integer weight `AREA_MU`: 9 columns (the narrow table of the speed bench);
 * - `TIE_MU..SSA.csv`: `TIE_MU` and the integer weight `WT_MU`, so that the weighted mean
 *   of every ADM2 unit lies exactly on a tie at 1 decimal (x.x5);
 * - `FS_MU..SSA.csv`: a numeric-code class column `FS_MU` (codes 1..16 with gaps) and its
 *   text twin `FS_MU_TX` ("1. Irrigated", ...), with the original catalog's conventions (item 4):
 *   classBreaks are positions 0|1|..|12, classLabels the codes themselves;
 * - `YLD_MU-ADM2_NAME_ALT-KEN.csv`: the export of one country (`<code>-<by>-<ISO3>.csv`);
 * - `vi.csv`: a catalog in the original's `vi` layout (ORIGINAL_VI_FIELDS) with those records.
 *
 * Cells: a block of the 5-arc-minute grid from 27 N southwards over 17 W .. 51 E (row by row,
 * CELL5M order), cut into 8-degree tiles assigned to real ISO3 codes and names (accented:
 * Côte d'Ivoire, São Tomé and Príncipe), ADM1 units in 2-degree bands with accented and
 * repeated names (Littoral in BEN and CMR; Centre, Nord-Est in several countries), ADM2 units
 * in 1-degree pieces with names repeated across ADM1 units. `--islands` adds the island
 * cells of SSA countries outside [-26, -35, 64, 28]: IOT (71-72.5 E, 5-7.5 S), SHN (Tristan
 * da Cunha and Gough, 37-40 S) and ZAF (Prince Edward Islands, 46.5-47 S).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { ORIGINAL_VI_FIELDS, quote } from '../src/node/export/format';

/** Options of {@link generateExports}. */
export interface GenExportsOptions {
  /** Output folder. */
  out: string;
  /** Cells of the region files (default 303,000). */
  rows?: number;
  /** Add the island cells outside the fixed window (see the module comment). */
  islands?: boolean;
  /** PRNG seed (default 1). */
  seed?: number;
}

/** What {@link generateExports} wrote. */
export interface GenExportsResult {
  /** Paths of the region files (`<code>..SSA.csv`), in join order. */
  region: string[];
  /** Path of the narrow (9-column) region file. */
  narrow: string;
  /** Path of the one-country file. */
  country: string;
  /** Path of the catalog. */
  catalog: string;
  /** Cells per region file. */
  rows: number;
}

const COUNTRIES: Array<[iso: string, name: string, adm1: string[]]> = [
  ['CIV', "Côte d'Ivoire", ['Abidjan', 'Bas-Sassandra', 'Comoé', 'Denguélé', 'Gôh-Djiboua', 'Lacs', 'Lagunes', 'Montagnes', 'Sassandra-Marahoué', 'Savanes', 'Vallée du Bandama', 'Woroba', 'Yamoussoukro', 'Zanzan']],
  ['BEN', 'Benin', ['Alibori', 'Atacora', 'Atlantique', 'Borgou', 'Collines', 'Couffo', 'Donga', 'Littoral', 'Mono', 'Ouémé', 'Plateau', 'Zou']],
  ['CMR', 'Cameroon', ['Adamaoua', 'Centre', 'Est', 'Extrême-Nord', 'Littoral', 'Nord', 'Nord-Ouest', 'Ouest', 'Sud', 'Sud-Ouest']],
  ['STP', 'São Tomé and Príncipe', ['Príncipe', 'São Tomé']],
  ['KEN', 'Kenya', ['Central', 'Coast', 'Eastern', 'Nairobi', 'North Eastern', 'Nyanza', 'Rift Valley', 'Western']],
  ['BFA', 'Burkina Faso', ['Boucle du Mouhoun', 'Cascades', 'Centre', 'Centre-Est', 'Centre-Nord', 'Est', 'Hauts-Bassins', 'Nord', 'Sahel']],
  ['MDG', 'Madagascar', ['Analamanga', 'Atsinanana', 'Boeny', 'Diana', 'Ihorombe', 'Itasy', 'Menabe', 'Sava']],
  ['COD', 'Democratic Republic of the Congo', ['Équateur', 'Kasaï', 'Katanga', 'Kinshasa', 'Maniema', 'Nord-Kivu', 'Orientale', 'Sud-Kivu']],
  ['ETH', 'Ethiopia', ['Afar', 'Amhara', 'Oromia', 'Somali', 'Tigray', 'SNNP']],
  ['NER', 'Niger', ['Agadez', 'Diffa', 'Dosso', 'Maradi', 'Niamey', 'Tahoua', 'Tillabéri', 'Zinder']],
];
const ADM2 = ['Centre', 'Nord', 'Sud', 'Nord-Est', 'Ouest', 'Est', 'Sud-Ouest', 'Plateau'];

/** Farming-system codes (made-up labels after the original's style) and their text twins. */
export const FS_CODES = [1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 16];
/** Text labels of {@link FS_CODES}, the column FS_MU_TX. */
export const FS_TEXT = FS_CODES.map((c, i) => `${c}. ${['Irrigated', 'Tree crop', 'Forest based', 'Rice-tree crop', 'Highland perennial', 'Highland temperate', 'Root and tuber', 'Cereal-root crop', 'Maize mixed', 'Agro-pastoral', 'Pastoral', 'Sparse (arid)', 'Coastal fishing'][i]}`);

const CELL = 1 / 12;

/** One generated cell. */
interface Cell {
  id: number;
  x: number;
  y: number;
  iso: string;
  adm0: string;
  adm1: string;
  adm2: string;
}

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const cellOf = (gc: number, gr: number) => ({ id: gr * 4320 + gc, x: -180 + (gc + 0.5) * CELL, y: 90 - (gr + 0.5) * CELL });

/** The cells (CELL5M order): the mainland block, then (option) the islands. */
export function generateCells(rows: number, islands: boolean): Cell[] {
  const out: Cell[] = [];
  const gc0 = Math.round((180 - 17) * 12), gc1 = Math.round((180 + 51) * 12);
  for (let gr = Math.round((90 - 27) * 12); out.length < rows; gr++) {
    for (let gc = gc0; gc < gc1 && out.length < rows; gc++) {
      const c = cellOf(gc, gr);
      const tx = Math.floor((c.x + 17) / 8), ty = Math.floor((27 - c.y) / 8);
      const [iso, adm0, a1] = COUNTRIES[(tx + 9 * ty) % COUNTRIES.length];
      const b1 = Math.floor((27 - c.y) / 2) + Math.floor((c.x + 17) / 4);
      const adm1 = a1[b1 % a1.length];
      const adm2 = ADM2[(Math.floor(c.x + 17) + Math.floor(27 - c.y)) % ADM2.length];
      out.push({ ...c, iso, adm0, adm1, adm2 });
    }
  }
  if (islands) {
    const add = (lon0: number, lon1: number, lat0: number, lat1: number, iso: string, adm0: string, adm1: string, adm2: string) => {
      for (let gr = Math.round((90 - lat1) * 12); gr < Math.round((90 - lat0) * 12); gr += 3) {
        for (let gc = Math.round((180 + lon0) * 12); gc < Math.round((180 + lon1) * 12); gc += 3) out.push({ ...cellOf(gc, gr), iso, adm0, adm1, adm2 });
      }
    };
    add(71, 72.5, -7.5, -5, 'IOT', 'British Indian Ocean Territory', 'Chagos Archipelago', 'Diego Garcia');
    add(-12.5, -12, -37.5, -37, 'SHN', 'Saint Helena', 'Tristan da Cunha', 'Tristan da Cunha');
    add(-10, -9.75, -40.5, -40.25, 'SHN', 'Saint Helena', 'Tristan da Cunha', 'Gough Island');
    add(37.5, 38, -47, -46.5, 'ZAF', 'South Africa', 'Western Cape', 'Prince Edward Islands');
  }
  return out;
}

async function writeTable(path: string, cells: Cell[], cols: string[], value: (i: number) => string[]): Promise<void> {
  const ws = createWriteStream(path);
  let buf = ['"CELL5M"', '"X"', '"Y"', '"ISO3"', '"ADM0_NAME"', '"ADM1_NAME_ALT"', '"ADM2_NAME_ALT"', ...cols.map(quote)].join(',') + '\n';
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    buf += `${c.id},${c.x.toFixed(6)},${c.y.toFixed(6)},${quote(c.iso)},${quote(c.adm0)},${quote(c.adm1)},${quote(c.adm2)},${value(i).join(',')}\n`;
    if (buf.length > 1 << 20) {
      if (!ws.write(buf)) await once(ws, 'drain');
      buf = '';
    }
  }
  ws.end(buf);
  await once(ws, 'finish');
}

function record(code: string, o: Partial<Record<(typeof ORIGINAL_VI_FIELDS)[number], string>>): Record<string, string> {
  const r: Record<string, string> = {};
  for (const f of ORIGINAL_VI_FIELDS) r[f] = '';
  Object.assign(r, {
    varCode: code, published: 'TRUE', dec: '1', year: '2012', cat1: 'Made-up test material', cat2: 'Generated', cat3: code,
    caveat: 'MADE-UP VALUES for tests and benchmarks, not data.', sources: 'made-up values generated by bench/gen-exports.ts', sourceMini: 'made-up values',
    type: 'continuous', varDesc: `Made-up values (bench/gen-exports.ts), shaped like an export of the original service.`,
  }, o);
  r.varLabel = `${o.varLabel ?? code} (made-up values)`;
  r.varTitle = r.varLabel;
  return r;
}

/** The catalog records of the generated files (original `vi` layout). */
export function catalogRecords(): Record<string, string>[] {
  const pal = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666', '#8dd3c7', '#ffffb3', '#bebada', '#fb8072'];
  return [
    record('YLD_MU', { varLabel: 'Yield', unit: 'kg/ha', aggFunR: 'weighted.mean(YLD_MU, AREA_MU, na.rm=TRUE)' }),
    record('AREA_MU', { varLabel: 'Harvested area', unit: 'ha', dec: '0', aggFunR: 'sum(AREA_MU, na.rm=TRUE)' }),
    record('TIE_MU', { varLabel: 'Tie-making index', unit: 'index', aggFunR: 'weighted.mean(TIE_MU, WT_MU, na.rm=TRUE)' }),
    // Item 4: breaks are positions 0..12, labels the codes themselves; 12 colours for 13 labels (a length mismatch).
    record('FS_MU', { varLabel: 'Farming system (code)', unit: 'class', dec: '0', type: 'class', aggFunR: 'names(sort(table(FS_MU), decreasing=TRUE))[1]',
      classBreaks: FS_CODES.map((_, i) => String(i)).join('|'), classLabels: FS_CODES.join('|'), classColors: pal.join('|') }),
    record('FS_MU_TX', { varLabel: 'Farming system', unit: 'class', dec: '0', type: 'class', aggFunR: 'names(sort(table(FS_MU_TX), decreasing=TRUE))[1]',
      classBreaks: FS_CODES.map((_, i) => String(i)).join('|'), classLabels: FS_TEXT.join('|'), classColors: pal.slice(0, 8).join('|') }),
  ];
}

/**
 * Writes the files described in the module comment.
 * @param opts folder, rows, islands, seed
 * @returns the paths written
 */
export async function generateExports(opts: GenExportsOptions): Promise<GenExportsResult> {
  const out = resolve(opts.out);
  await mkdir(out, { recursive: true });
  const rnd = prng(opts.seed ?? 1);
  const cells = generateCells(opts.rows ?? 303000, !!opts.islands);
  const n = cells.length;
  await writeFile(join(out, 'MADE-UP-VALUES.txt'), 'Every value in this folder is MADE UP (bench/gen-exports.ts); the files only have the shape of the original service\'s exports.\n');
  // Narrow region file: sparse yield, integer area weight.
  const yld = Array.from({ length: n }, () => (rnd() < 0.15 ? (500 + rnd() * 3000).toFixed(1) : ''));
  const area = Array.from({ length: n }, () => String(1 + Math.floor(rnd() * 900)));
  const narrow = join(out, 'YLD_MU..SSA.csv');
  await writeTable(narrow, cells, ['YLD_MU', 'AREA_MU'], (i) => [yld[i], area[i]]);
  // Ties: within each ADM2 unit, values alternate base+0.1 / base+0.2 with equal integer weights, an odd last cell gets base+0.15.
  const unitOf = cells.map((c) => `${c.iso}|${c.adm1}|${c.adm2}`);
  const count = new Map<string, number>();
  for (const u of unitOf) count.set(u, (count.get(u) ?? 0) + 1);
  const seen = new Map<string, number>();
  const base = new Map<string, number>();
  const tie = cells.map((_, i) => {
    const u = unitOf[i];
    const k = seen.get(u) ?? 0;
    seen.set(u, k + 1);
    if (!base.has(u)) base.set(u, Math.floor(rnd() * 50));
    const b = base.get(u)!;
    if (k === count.get(u)! - 1 && k % 2 === 0) return (b + 0.15).toFixed(2);
    return (b + (k % 2 ? 0.2 : 0.1)).toFixed(1);
  });
  const wt = cells.map((c) => String(2 + (c.iso.charCodeAt(0) % 3)));
  const tieFile = join(out, 'TIE_MU..SSA.csv');
  await writeTable(tieFile, cells, ['TIE_MU', 'WT_MU'], (i) => [tie[i], wt[i]]);
  // Classes: codes 1..16 with gaps, text twin.
  const fs = cells.map(() => (rnd() < 0.3 ? -1 : Math.floor(rnd() * FS_CODES.length)));
  const fsFile = join(out, 'FS_MU..SSA.csv');
  await writeTable(fsFile, cells, ['FS_MU', 'FS_MU_TX'], (i) => (fs[i] < 0 ? ['', ''] : [String(FS_CODES[fs[i]]), quote(FS_TEXT[fs[i]])]));
  // One country.
  const ken: number[] = [];
  cells.forEach((c, i) => c.iso === 'KEN' && ken.push(i));
  const country = join(out, 'YLD_MU-ADM2_NAME_ALT-KEN.csv');
  await writeTable(country, ken.map((i) => cells[i]), ['YLD_MU', 'AREA_MU'], (k) => [yld[ken[k]], area[ken[k]]]);
  const recs = catalogRecords();
  const catalog = join(out, 'vi.csv');
  await writeFile(catalog, Papa.unparse({ fields: [...ORIGINAL_VI_FIELDS], data: recs.map((r) => ORIGINAL_VI_FIELDS.map((f) => r[f])) }, { newline: '\n', quotes: true }) + '\n');
  return { region: [narrow, tieFile, fsFile], narrow, country, catalog, rows: n };
}

async function cli(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, rows: { type: 'string' }, islands: { type: 'boolean' }, seed: { type: 'string' } } });
  if (!values.out) throw new Error('--out <dir> is required');
  const r = await generateExports({ out: values.out, rows: values.rows ? Number(values.rows) : undefined, islands: values.islands, seed: values.seed ? Number(values.seed) : undefined });
  console.log(`wrote ${r.region.length} region files of ${r.rows} cells, ${r.country}, ${r.catalog} (made-up values)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((e) => {
    console.error((e as Error).message);
    process.exitCode = 1;
  });
}
