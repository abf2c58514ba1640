/**
 * Shaping a computed query: summary rows (per block the overall row, then one per present
 * group in key order), per-cell rows, column descriptions and metadata records.
 */
import type { ColumnInfo } from '../api';
import { cellCentre, cellId } from '../grid';
import type { ClassEntry, Row, VarRecord } from '../types';
import type { Computed } from './compute';
import type { Ctx } from './context';
import { roundR } from '../r/labels';
import { isLegacyStat, type BySpec, type VarSpec } from './plan';
import { BIN_COLUMN, explodeHistogram, zonalColumns } from './zonal';

/** ISO3 and ADM0_NAME of an ISO3 class. */
export function countryKeys(c: Ctx, e: ClassEntry): Row {
  const name = typeof e.name === 'string' && e.name ? e.name : (c.cat.isoEntry(e.label)?.name ?? e.label);
  return { ISO3: e.label, ADM0_NAME: name };
}

/** Per ISO3 class list: upper-cased label -> its first class (one lookup per row instead of a scan). */
const isoByLabel = new WeakMap<ClassEntry[], Map<string, ClassEntry>>();

/** ISO3 and ADM0_NAME of a unit's country code (none when the code is empty). */
export function unitKeys(c: Ctx, iso3: string): Row {
  if (!iso3) return {};
  let byLabel = isoByLabel.get(c.isoClasses);
  if (!byLabel) {
    byLabel = new Map();
    for (const x of c.isoClasses) if (!byLabel.has(x.label.toUpperCase())) byLabel.set(x.label.toUpperCase(), x);
    isoByLabel.set(c.isoClasses, byLabel);
  }
  const e = byLabel.get(iso3);
  return e ? countryKeys(c, e) : { ISO3: iso3, ADM0_NAME: c.cat.isoEntry(iso3)?.name ?? iso3 };
}

/** A value as written in rows: rounded to the record's decimals as R round(); undefined for NA. */
export function fmtValue(v: VarSpec, x: number | string | undefined): number | string | undefined {
  if (x === undefined) return undefined;
  if (typeof x === 'string') return x;
  return Number.isFinite(x) ? roundR(x, v.rec.dec) : undefined;
}

/** Writes the values and extra stats of group `t` into `row`. */
export function valueFields(cp: Computed, t: number, row: Row): void {
  cp.vars.forEach((v, k) => {
    const x = fmtValue(v, cp.aggs![k].value(t));
    if (x !== undefined) row[v.code] = x;
    cp.zonal?.[k]?.fields(t, row);
    for (const s of v.stats) {
      if (!isLegacyStat(s)) continue;
      const y = cp.aggs![k].stat(s, t);
      if (y === undefined) continue;
      row[`${v.code}_${s}`] = typeof y === 'string' ? y : s === 'count' ? roundR(y, 4) : roundR(y, v.rec.dec);
    }
  });
}

/** Decodes a slot into per-dimension indices (index `n` of a dimension: its NA group). */
export function decode(bys: BySpec[], combo: number): number[] {
  const idx = new Array<number>(bys.length);
  for (let k = bys.length - 1; k >= 0; k--) { const m = bys[k].n + 1; idx[k] = combo % m; combo = Math.floor(combo / m); }
  return idx;
}

/** Sort rank of a group index of a dimension: the NA group after every other. */
export function rankOf(d: BySpec, i: number): number {
  return i >= d.n ? d.n : d.rank[i];
}

/** Key of a group index as written in rows: the label, or null for the NA group. */
export function keyOf(d: BySpec, i: number): string | null {
  return i >= d.n ? null : d.labels[i];
}

/**
 * Summary rows of a computed query: per block (country, pool, or requested code) the overall
 * row (with `total: 1` when there is a `by`), then one row per present group sorted by keys.
 * @param blockKeys keys written on every row of a pooled block (a region among several codes)
 */
export function tableRows(c: Ctx, cp: Computed, blockKeys?: Row): Row[] {
  const rows: Row[] = [];
  const { frame, bys, P } = cp;
  const G = frame.C * frame.S;
  // rows by a unit layer (class table with an iso3 column) carry the unit's country, and the
  // unit's first-level name when the table has an adm1 column (second-level units)
  const unitDim = bys.findIndex((d) => d.iso3);
  const ud = unitDim >= 0 ? bys[unitDim] : null;
  const unitIso = (idx: number[]) => (ud && idx[unitDim] < ud.n ? ud.iso3![idx[unitDim]] : '\uffff');
  const unitAdm1 = (idx: number[]) => (ud?.adm1 && idx[unitDim] < ud.n ? ud.adm1[idx[unitDim]] : '\uffff');
  cp.sel.blocks.forEach((blk, b) => {
    if (!(frame.groupN[G + b] > 0)) return;
    const keys: Row = blk ? countryKeys(c, blk) : { ...(blockKeys ?? {}) };
    const sum: Row = { ...keys };
    if (bys.length) sum.total = 1;
    valueFields(cp, G + b, sum);
    rows.push(sum);
    if (!bys.length) return;
    const present: Array<[number, number[]]> = [];
    for (let s = 0; s < P; s++) if (frame.groupN[b * frame.S + s] > 0) present.push([s, decode(bys, s)]);
    present.sort((x, y) => {
      if (ud) {
        let a = unitIso(x[1]), z = unitIso(y[1]);
        if (a !== z) return a < z ? -1 : 1;
        a = unitAdm1(x[1]); z = unitAdm1(y[1]);
        if (a !== z) return a < z ? -1 : 1;
      }
      for (let k = 0; k < bys.length; k++) {
        const d = rankOf(bys[k], x[1][k]) - rankOf(bys[k], y[1][k]);
        if (d) return d;
      }
      return 0;
    });
    for (const [s, idx] of present) {
      let row: Row = { ...keys };
      if (ud && idx[unitDim] < ud.n) {
        if (!blk) row = unitKeys(c, unitIso(idx));
        if (ud.adm1) row.ADM1_NAME_ALT = unitAdm1(idx);
      }
      bys.forEach((d, k) => { row[d.key] = keyOf(d, idx[k]); });
      valueFields(cp, b * frame.S + s, row);
      // R's NA group: how many cells (coverage-weighted with WKT) fell outside the breaks / classes
      if (bys.some((d, k) => idx[k] >= d.n)) row.cells = roundR(frame.groupN[b * frame.S + s], 4);
      rows.push(row);
    }
  });
  return rows;
}

/** Column descriptions of a computed query (keys, total, by keys, values, stats). */
export function columns(c: Ctx, cp: Computed, extra: ColumnInfo[] = [], perCell = false): ColumnInfo[] {
  const cols: ColumnInfo[] = [...extra];
  const keyCol = (code: string, label: string, type: ColumnInfo['type'] = 'string'): ColumnInfo => {
    const rec = c.cat.get(code);
    return { name: code, role: 'key', code: rec ? code : undefined, label: rec?.varLabel ?? label, unit: rec?.unit ?? '', type };
  };
  if (perCell) {
    cols.push({ name: 'CELL5M', role: 'key', label: 'Grid cell id (5 arc-minutes)', unit: '', type: 'integer' });
    cols.push({ name: 'X', role: 'key', label: 'Cell centre longitude', unit: 'degrees', type: 'number' });
    cols.push({ name: 'Y', role: 'key', label: 'Cell centre latitude', unit: 'degrees', type: 'number' });
  }
  if (cp.sel.blocks[0] !== null || perCell || cp.bys.some((d) => d.iso3)) {
    cols.push({ ...keyCol('ISO3', 'ISO3 country code'), classes: c.isoClasses });
    cols.push(keyCol('ADM0_NAME', 'Country name'));
  }
  const unitAdm1 = cp.bys.some((d) => d.adm1) && !cp.bys.some((d) => d.key === 'ADM1_NAME_ALT');
  if (unitAdm1) cols.push(keyCol('ADM1_NAME_ALT', 'First-level unit name'));
  if (cp.bys.length && !perCell) {
    cols.push({ name: 'total', role: 'key', label: 'Overall row (1) of a country, region or selection; missing on the rows by domain', unit: '', type: 'integer' });
  }
  for (const d of cp.bys) {
    cols.push({
      ...keyCol(d.code, d.rec.varLabel),
      name: d.key,
      classes: d.labels.map((l, i) => ({ value: d.values ? d.values[i] : i + 1, label: l })),
    });
  }
  if (!perCell && cp.vars.some((v) => v.zonal?.ops.includes('histogram') && v.rec.type !== 'class')) cols.push(BIN_COLUMN);
  for (const v of cp.vars) {
    const isClass = v.rec.type === 'class';
    cols.push({
      name: v.code, role: 'value', code: v.code, label: v.rec.varLabel, unit: v.rec.unit,
      type: isClass ? 'string' : 'number', dec: isClass ? undefined : v.rec.dec, classes: isClass ? v.classes : undefined,
    });
    if (!perCell && v.zonal) cols.push(...zonalColumns(v, v.zonal));
    for (const s of v.stats) {
      if (!isLegacyStat(s)) continue;
      const str = s === 'hist' || (isClass && (s === 'majority' || s === 'minority'));
      if (isClass && !['count', 'majority', 'minority'].includes(s)) continue;
      cols.push({
        name: `${v.code}_${s}`, role: 'value', code: v.code, label: `${v.rec.varLabel} (${s})`,
        unit: s === 'count' || s === 'hist' ? '' : v.rec.unit, type: str ? 'string' : 'number', dec: str ? undefined : s === 'count' ? 4 : v.rec.dec,
      });
    }
  }
  return cols;
}

/** Summary rows with histograms made one row per bin ({@link explodeHistogram}), bin edges at the variable's decimals plus 3. */
export function binRows(cp: Computed, rows: Row[]): Row[] {
  return explodeHistogram(rows, (code) => (cp.vars.find((v) => v.code === code)?.rec.dec ?? 2) + 3);
}

/** Adds the `cells` column when some row (an NA group's) carries it. */
export function withCells(cols: ColumnInfo[], rows: Row[]): ColumnInfo[] {
  if (!rows.some((r) => r.cells !== undefined)) return cols;
  return [...cols, { name: 'cells', role: 'value', label: "Cells of R's NA group (outside every interval or without a class; coverage-weighted with WKT)", unit: 'cells', type: 'number', dec: 4 }];
}

/** Per-cell rows (collapse = FALSE): CELL5M, centre X/Y, country, by keys, values; sorted by country, groups, cell. */
export function cellRows(c: Ctx, cp: Computed): Row[] {
  const { sel, frame, bys, vars, aggs, varData, iso } = cp;
  const [x0, y0, x1] = sel.win;
  const w = x1 - x0;
  const grid = c.grid;
  const items: Array<{ i: number; g: number; ci: number }> = [];
  // with by, a cell without a key in some dimension (no-data class, outside every interval)
  // is in that dimension's NA group: its row has the key null and the NA group's summary
  for (let i = 0; i < frame.sel.length; i++) if (frame.sel[i] >= 0) items.push({ i, g: frame.sel[i], ci: c.isoIndex[iso[i]] });
  const ud = bys.find((d) => d.adm1);
  const udk = ud ? bys.indexOf(ud) : -1;
  const decoded = new Map<number, number[]>();
  const dec = (g: number) => {
    let d = decoded.get(g);
    if (!d) { d = decode(bys, g % frame.S); decoded.set(g, d); }
    return d;
  };
  items.sort((a, b) => {
    if (a.ci !== b.ci) return a.ci - b.ci;
    if (bys.length) {
      const sa = a.g % frame.S, sb = b.g % frame.S;
      if (sa !== sb) {
        const da = dec(a.g), db = dec(b.g);
        for (let k = 0; k < bys.length; k++) {
          const d = rankOf(bys[k], da[k]) - rankOf(bys[k], db[k]);
          if (d) return d;
        }
      }
    }
    return a.i - b.i;
  });
  const lut = vars.map((v) => (v.classes ? new Map(v.classes.map((e) => [e.value, e.label])) : null));
  return items.map(({ i, g }) => {
    const col = x0 + (i % w), row = y0 + Math.floor(i / w);
    const [X, Y] = cellCentre(grid, col, row); // one correctly rounded division each
    const r: Row = { CELL5M: cellId(grid, col, row), X, Y };
    const ie = c.isoClasses[c.isoIndex[iso[i]]];
    if (ie) Object.assign(r, countryKeys(c, ie));
    if (bys.length) {
      const idx = dec(g);
      if (ud && idx[udk] < ud.n) r.ADM1_NAME_ALT = ud.adm1![idx[udk]];
      bys.forEach((d, k) => { r[d.key] = keyOf(d, idx[k]); });
    }
    vars.forEach((v, k) => {
      let x: number | string | undefined;
      if (aggs) x = fmtValue(v, aggs[k].value(g));
      else if (v.rec.type === 'class') x = lut[k]!.get((varData[k] as Int32Array)[i]);
      else x = fmtValue(v, (varData[k] as Float64Array)[i]);
      if (x !== undefined) r[v.code] = x;
    });
    return r;
  });
}

/** Catalog records of the columns of a computed query. */
export function metaOf(c: Ctx, cp: Computed): VarRecord[] {
  const codes = [...cp.bys.map((b) => b.code), ...cp.vars.map((v) => v.code)];
  if (cp.sel.blocks[0] !== null || cp.bys.some((d) => d.iso3)) codes.unshift('ISO3', 'ADM0_NAME');
  return [...new Set(codes)].map((k) => c.cat.get(k)).filter((r): r is VarRecord => !!r);
}
