/**
 * Test fixture: a tiny in-memory Engine and file writer with the shapes of the real ones,
 * used by the contract tests until (and besides) the real engine on the real bundle.
 * The numbers are fixture values, not indicator data.
 */
import type { CategoryRow, CellResult, Engine, TableResult } from '../../src/core/api';
import { IndapiError } from '../../src/core/errors';
import type { GetLayerArgs, VarRecord } from '../../src/core/types';
import type { GenFile } from '../../src/contract/methods';

function rec(code: string, type: 'continuous' | 'class', cat1: string, label: string): VarRecord {
  return {
    varCode: code, varLabel: label, varTitle: label, varDesc: `${label} (fixture)`, unit: type === 'class' ? '' : 'm', type, dec: 0,
    aggFunR: type === 'class' ? `dominant(${code})` : `mean(${code}, na.rm=TRUE)`, classBreaks: '', classLabels: '', classColors: '',
    cat1, cat2: 'Fixture', cat3: 'Fixture', year: '2000', yearEnd: '2000', sources: 'fixture', sourceMini: 'fixture', owner: 'tests',
    citation: 'fixture', license: 'CC0-1.0', version: '1', published: '2024-01-01', dataType: type === 'class' ? 'Byte' : 'Float32',
    noData: type === 'class' ? '255' : '-9999', classTable: type === 'class' ? `classes/${code}.csv` : '',
  };
}

const CATALOG: VarRecord[] = [
  rec('ELEVATION', 'continuous', 'Biophysical', 'Elevation'),
  rec('AREA_LAND', 'continuous', 'Biophysical', 'Land area'),
  rec('ISO3', 'class', 'Administrative', 'Country code'),
  rec('ADM0_NAME', 'class', 'Administrative', 'Country name'),
  rec('ADM1_NAME_ALT', 'class', 'Administrative', 'Province name'),
];
const CODES = new Set(CATALOG.map((r) => r.varCode));
const ISO = new Set(['SSA', 'KEN', 'UGA', 'EAF']);

function check(a: GetLayerArgs): void {
  const by = a.by === undefined ? [] : Array.isArray(a.by) ? a.by : Object.keys(a.by);
  const bad = [...a.var, ...by].filter((c) => !CODES.has(c));
  if (bad.length) throw new IndapiError('UNKNOWN_CODE', `Unknown indicator code(s): ${bad.join(', ')}. See category() for the codes.`);
  const badIso = (a.iso3 ?? ['SSA']).filter((c) => !ISO.has(c));
  if (badIso.length) throw new IndapiError('UNKNOWN_ISO3', `Unknown country or region code ${badIso.join(', ')}. Use SSA, KEN, UGA or EAF.`);
}

/** The fixture's WKT: limits like the real parser's, and the bounding box of the coordinates on land (lon 30..42, lat -5..5), or null. */
function wktBox(wkt: string): [number, number, number, number] | null {
  if (wkt.length > 5_000_000) throw new IndapiError('TOO_LARGE', 'WKT is longer than 5000000 characters.');
  if (!/^\s*(POINT|POLYGON|MULTIPOINT|MULTIPOLYGON|GEOMETRYCOLLECTION)\s*\(/i.test(wkt)) throw new IndapiError('BAD_WKT', `Cannot parse WKT: ${wkt.slice(0, 40)}`);
  const xy = [...wkt.matchAll(/(-?[\d.]+)\s+(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  if (xy.length > 100_000) throw new IndapiError('TOO_LARGE', 'WKT has more than 100000 vertices.');
  const land = xy.filter(([x, y]) => x >= 30 && x <= 42 && y >= -5 && y <= 5);
  if (!land.length) return null;
  const xs = land.map((p) => p[0]), ys = land.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Centre of a CELL5M cell. */
function centre(id: number): { X: number; Y: number } {
  const col = id % 4320, row = Math.floor(id / 4320);
  return { X: (col * 2 + 1 - 4320) / 24, Y: (2160 - (row * 2 + 1)) / 24 };
}

function rows(a: GetLayerArgs) {
  check(a);
  const iso = (a.iso3 ?? ['SSA']).filter((c) => c !== 'SSA');
  const base = iso.length ? iso.map((c) => ({ ISO3: c, ADM0_NAME: c === 'KEN' ? 'Kenya' : 'Uganda' })) : [{}];
  const by = a.by === undefined ? [] : Array.isArray(a.by) ? a.by : Object.keys(a.by);
  const out: Record<string, string | number>[] = [];
  for (const b of base) {
    if (!by.length) out.push({ ...b, ...Object.fromEntries(a.var.map((v) => [v, 1000])) });
    else for (const g of ['A', 'B']) out.push({ ...b, [by[0]]: g, ...Object.fromEntries(a.var.map((v) => [v, g === 'A' ? 500 : 1500])) });
  }
  return out;
}

function table(a: GetLayerArgs): TableResult {
  const r = rows(a);
  const cols = [...new Set(r.flatMap((x) => Object.keys(x)))];
  return {
    rows: r,
    columns: cols.map((name) => ({ name, role: a.var.includes(name) ? 'value' : 'key', code: name, label: name, unit: '', type: a.var.includes(name) ? 'number' : 'string' })),
    meta: CATALOG.filter((x) => a.var.includes(x.varCode)),
  };
}

/** The fixture engine. */
export function createFakeEngine(): Engine {
  return {
    async catalog() {
      return CATALOG;
    },
    async category({ q, asList }) {
      let list: CategoryRow[] = CATALOG.map((r) => ({ category: r.cat1, subcategory: r.cat2, item: r.cat3, code: r.varCode, label: r.varLabel }));
      if (q?.length) {
        const res = q.map((p) => new RegExp(p, 'i'));
        list = list.filter((r) => res.some((re) => re.test(r.code) || re.test(r.label) || re.test(r.category)));
        if (!list.length) throw new IndapiError('NO_MATCH', `No indicator matches ${q.join(', ')}. Call category() without q for the full list.`);
      }
      if (!asList) return list;
      const out: Record<string, Record<string, CategoryRow[]>> = {};
      for (const r of list) ((out[r.category] ??= {})[r.subcategory] ??= []).push(r);
      return out;
    },
    async describe({ var: v }) {
      const recs = v ? CATALOG.filter((r) => v.includes(r.varCode)) : CATALOG;
      if (v && !recs.length) throw new IndapiError('UNKNOWN_CODE', `Unknown indicator code(s): ${v.join(', ')}`);
      return recs.map((r) => ({ Code: r.varCode, Label: r.varLabel, Unit: r.unit }));
    },
    async getLayer(a) {
      check(a);
      const by = a.by === undefined ? [] : Array.isArray(a.by) ? a.by : Object.keys(a.by);
      const r =
        a.collapse === false && a.ids
          ? a.ids.map((id) => ({ CELL5M: id, ...centre(id), ISO3: 'KEN', ADM0_NAME: 'Kenya', ...(by.length ? { [by[0]]: 'A' } : {}), ...Object.fromEntries(a.var.map((v) => [v, 1000])) }))
          : rows(a);
      return a.asList ? { meta: CATALOG.filter((x) => a.var.includes(x.varCode)).map((x) => ({ Code: x.varCode })), data: r } : r;
    },
    async getLayerTable(a) {
      return table(a);
    },
    async getLayerCells(a): Promise<CellResult> {
      check(a);
      const wkt = (a as { wkt?: string }).wkt;
      if (wkt) {
        const box = wktBox(wkt);
        if (!box) throw new IndapiError('EMPTY_SELECTION', 'The query selects no cell with data.');
        // the cells whose centres are inside the box
        const c0 = Math.ceil((box[0] + 180) * 12 - 0.5), c1 = Math.floor((box[2] + 180) * 12 - 0.5);
        const r0 = Math.ceil((90 - box[3]) * 12 - 0.5), r1 = Math.floor((90 - box[1]) * 12 - 0.5);
        const width = Math.max(1, c1 - c0 + 1), height = Math.max(1, r1 - r0 + 1);
        const grid = { crs: 'EPSG:4326' as const, cellSizeDeg: 1 / 12, xmin: c0 / 12 - 180, ymin: 90 - (r0 + height) / 12, xmax: (c0 + width) / 12 - 180, ymax: 90 - r0 / 12, width, height, colOffset: c0, rowOffset: r0 };
        return { grid, mask: new Uint8Array(width * height).fill(1), layers: [], meta: [] };
      }
      return {
        grid: { crs: 'EPSG:4326', cellSizeDeg: 1 / 12, xmin: 36, ymin: -1 / 12, xmax: 36 + 2 / 12, ymax: 0, width: 2, height: 1, colOffset: 2592, rowOffset: 1080 },
        mask: new Uint8Array([1, 1]),
        layers: a.var.map((code) => ({ code, type: 'continuous' as const, values: new Float64Array([1, 2]) })),
        meta: CATALOG.filter((x) => a.var.includes(x.varCode)),
      };
    },
    async getLayerWKT(a) {
      if (!wktBox(a.wkt)) return { ...table({ ...a, iso3: ['KEN'] }), rows: [] };
      return table({ ...a, iso3: ['KEN'] });
    },
    async classify(a) {
      check({ var: a.var });
      const keys = Object.keys(a.domains as object);
      return { rows: keys.map((k) => ({ domain: k, ...Object.fromEntries(a.var.map((v) => [v, 1000])) })), columns: [], meta: [] };
    },
    async similar(a) {
      check({ var: a.var });
      if (!['Eastern', 'Central', 'Nairobi', 'Ségou'].includes(String(a.x))) throw new IndapiError('BAD_ARGUMENT', `Unit '${a.x}' was not found among the first-level units of the selection.`, { x: a.x });
      return { rows: [{ ADM1_NAME_ALT: String(a.x), score: 0, rank: 1 }, { ADM1_NAME_ALT: 'Other', score: 1.5, rank: 2 }], columns: [], meta: [] };
    },
    async catalogCsv() {
      const head = Object.keys(CATALOG[0]);
      return [head.join(','), ...CATALOG.map((r) => head.map((h) => JSON.stringify(String((r as any)[h]))).join(','))].join('\n') + '\n';
    },
  };
}

const enc = new TextEncoder();
// 1x1 PNG (fixture bytes; the real writers render with resvg).
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

/** The fixture file writer: csv (table) and tif (cells) packages, plot/hist graphics; other formats fail like the real one. */
export const fakeGenFile: GenFile = async (input) => {
  const f = input.format.toLowerCase();
  const codes = input.meta.map((m) => m.varCode).join('_');
  const by = Array.isArray(input.args.by) ? (input.args.by as string[]).join('_') : input.args.by ? Object.keys(input.args.by as object).join('_') : '';
  const iso = ((input.args.iso3 as string[] | undefined) ?? ['SSA']).join('_');
  const stem = [input.method, codes, by, iso].filter(Boolean).join('-');
  const zipName = `${[codes, by, iso].filter(Boolean).join('-')}.${f}.zip`;
  const desc = { name: 'DESCRIPTION', mediaType: 'text/plain', bytes: enc.encode(`Title: fixture\nFormat: ${f}\n`) };
  if (f === 'csv') {
    if (!input.table) throw new Error('csv needs a table');
    const cols = input.table.columns.map((c) => c.name);
    const csv = [cols.join(','), ...input.table.rows.map((r) => cols.map((c) => r[c] ?? '').join(','))].join('\r\n') + '\r\n';
    return { files: [desc, { name: `${stem}.csv`, mediaType: 'text/csv', bytes: enc.encode(csv) }, { name: 'meta.csv', mediaType: 'text/csv', bytes: enc.encode('code\n' + codes + '\n') }], graphics: [], zipName };
  }
  if (f === 'tif') {
    if (!input.cells) throw new Error('tif needs cells');
    return { files: [desc, { name: `${codes}.tif`, mediaType: 'image/tiff', bytes: new Uint8Array([73, 73, 42, 0]) }], graphics: [], zipName };
  }
  if (f === 'plot' || f === 'hist') {
    if (!input.cells || !input.table) throw new Error('graphics need cells and table');
    return { files: [], graphics: input.meta.map((m) => ({ svg: `<svg xmlns="http://www.w3.org/2000/svg"><title>${m.varCode}</title></svg>`, png: PNG })), zipName };
  }
  throw new IndapiError('BAD_FORMAT', `'${input.format}' is not a recognized format.`);
};
