/**
 * Hand-made FIXTURES for the writer tests: small TableResult / CellResult values in the
 * shapes the engine produces. The numbers are made up for tests and never shipped.
 */
import type { CellResult, TableResult } from '../../src/core/api';
import type { GridDef } from '../../src/core/grid';
import type { ClassEntry, VarRecord } from '../../src/core/types';

function rec(p: Partial<VarRecord> & Pick<VarRecord, 'varCode' | 'varLabel' | 'type'>): VarRecord {
  return {
    varTitle: p.varLabel,
    varDesc: `Fixture record for ${p.varCode}.`,
    unit: '',
    dec: 0,
    aggFunR: `mean(${p.varCode}, na.rm=TRUE)`,
    classBreaks: '',
    classLabels: '',
    classColors: '',
    cat1: 'Fixture',
    cat2: 'Tests',
    cat3: '',
    year: '2014',
    yearEnd: '2014',
    sources: 'Fixture source, made up for tests',
    sourceMini: 'Fixture',
    owner: 'tests',
    citation: 'Fixture citation (tests only).',
    license: 'CC0-1.0',
    version: '1',
    published: '2026-01-01',
    dataType: 'Float32',
    noData: '-9999',
    classTable: '',
    ...p,
  };
}

/** Classes of the ELEV_ZONE fixture. */
export const ELEV_ZONE_CLASSES: ClassEntry[] = [
  { value: 1, label: 'Lowland (< 500 m)', color: '#1a9850' },
  { value: 2, label: 'Midland (500-1500 m)', color: '#fee08b' },
  { value: 3, label: 'Highland (> 1500 m)', color: '#d73027' },
];

/** Classes of the ADM1_NAME_ALT fixture: UTF-8, a comma and a quote on purpose. */
export const ADM1_CLASSES: ClassEntry[] = [
  { value: 101, label: 'Central' },
  { value: 102, label: 'Région "Côte", Est' },
  { value: 103, label: 'Rift Valley' },
];

/** Classes of the ISO3 key fixture: the ISO3 class table's columns (value, label, color, name). */
export const ISO3_CLASSES: ClassEntry[] = [
  { value: 23, label: 'KEN', color: '#80b1d3', name: 'Kenya' },
  { value: 42, label: 'TZA', color: '#fdb462', name: 'United Republic of Tanzania' },
];

/** Catalog records of the fixture codes. */
export const FIXTURE_META: VarRecord[] = [
  rec({ varCode: 'ELEVATION', varLabel: 'Elevation (fixture)', type: 'continuous', unit: 'm', dec: 0, classBreaks: '-500|500|1500|3000|6000', classLabels: '(-500,500]|(500,1500]|(1500,3000]|(3000,6000]', classColors: '#1a9850|#a6d96a|#fdae61|#d73027', sources: 'ETOPO5 fixture source', sourceMini: 'ETOPO5 (fixture)', license: 'public domain', citation: 'NOAA (fixture citation).' }),
  rec({ varCode: 'AREA_TOTAL', varLabel: 'Total area (fixture)', type: 'continuous', unit: 'km2', dec: 1, aggFunR: 'sum(AREA_TOTAL, na.rm=TRUE)' }),
  rec({ varCode: 'ELEV_ZONE', varLabel: 'Elevation zone (fixture)', type: 'class', aggFunR: 'dominant(ELEV_ZONE)', classBreaks: '1|2|3', classLabels: ELEV_ZONE_CLASSES.map((c) => c.label).join('|'), classColors: ELEV_ZONE_CLASSES.map((c) => c.color).join('|'), dataType: 'Byte', noData: '255', classTable: 'classes/ELEV_ZONE.csv' }),
  rec({ varCode: 'ADM1_NAME_ALT', varLabel: 'Admin-1 unit (fixture)', type: 'class', aggFunR: 'dominant(ADM1_NAME_ALT)', license: 'public domain', sources: 'Natural Earth fixture', sourceMini: 'Natural Earth (fixture)' }),
];

/** Records by code. */
export function metaOf(...codes: string[]): VarRecord[] {
  return codes.map((c) => FIXTURE_META.find((m) => m.varCode === c) as VarRecord);
}

/** FIXTURE: ELEVATION, AREA_TOTAL and ELEV_ZONE in KEN by ADM1_NAME_ALT, with the country row. */
export const TABLE_KEN_ADM1: TableResult = {
  columns: [
    { name: 'ISO3', role: 'key', label: 'ISO 3166-1 alpha-3 code', unit: '', type: 'string' },
    { name: 'ADM0_NAME', role: 'key', label: 'Country', unit: '', type: 'string' },
    { name: 'ADM1_NAME_ALT', role: 'key', code: 'ADM1_NAME_ALT', label: 'Admin-1 unit (fixture)', unit: '', type: 'string', classes: ADM1_CLASSES },
    { name: 'ELEVATION', role: 'value', code: 'ELEVATION', label: 'Elevation (fixture)', unit: 'm', type: 'number', dec: 0 },
    { name: 'AREA_TOTAL', role: 'value', code: 'AREA_TOTAL', label: 'Total area (fixture)', unit: 'km2', type: 'number', dec: 1 },
    { name: 'ELEV_ZONE', role: 'value', code: 'ELEV_ZONE', label: 'Elevation zone (fixture)', unit: '', type: 'string', classes: ELEV_ZONE_CLASSES },
  ],
  rows: [
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ELEVATION: 1093, AREA_TOTAL: 591958.4, ELEV_ZONE: 'Midland (500-1500 m)' },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Central', ELEVATION: 1923, AREA_TOTAL: 13176.2, ELEV_ZONE: 'Highland (> 1500 m)' },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Région "Côte", Est', AREA_TOTAL: 83040.5, ELEV_ZONE: 'Lowland (< 500 m)' },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Rift Valley', ELEVATION: 1502.5, AREA_TOTAL: 182505 },
  ],
  meta: metaOf('ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE', 'ADM1_NAME_ALT'),
};

/** FIXTURE: ELEV_ZONE (dominant) by ELEVATION intervals over SSA. */
export const TABLE_CLASS_BY_INTERVAL: TableResult = {
  columns: [
    { name: 'ELEVATION', role: 'key', code: 'ELEVATION', label: 'Elevation (fixture)', unit: 'm', type: 'string', classes: [{ value: 1, label: '(-500,500]' }, { value: 2, label: '(500,1500]' }, { value: 3, label: '(1500,3000]' }, { value: 4, label: '(3000,6000]' }] },
    { name: 'ELEV_ZONE', role: 'value', code: 'ELEV_ZONE', label: 'Elevation zone (fixture)', unit: '', type: 'string', classes: ELEV_ZONE_CLASSES },
    { name: 'ELEV_ZONE_count', role: 'value', code: 'ELEV_ZONE', label: 'Cells (fixture)', unit: 'cells', type: 'integer' },
  ],
  rows: [
    { ELEVATION: '(-500,500]', ELEV_ZONE: 'Lowland (< 500 m)', ELEV_ZONE_count: 301234 },
    { ELEVATION: '(500,1500]', ELEV_ZONE: 'Midland (500-1500 m)', ELEV_ZONE_count: 402345 },
    { ELEVATION: '(1500,3000]', ELEV_ZONE: 'Highland (> 1500 m)', ELEV_ZONE_count: 98765 },
    { ELEVATION: '(3000,6000]', ELEV_ZONE: 'Highland (> 1500 m)', ELEV_ZONE_count: 1234 },
  ],
  meta: metaOf('ELEV_ZONE', 'ELEVATION'),
};

/** FIXTURE window: 5 columns x 4 rows with its north-west corner at 36E, 0.5N. */
export const FIXTURE_GRID: GridDef = {
  crs: 'EPSG:4326',
  cellSizeDeg: 1 / 12,
  xmin: 36,
  ymin: 0.5 - 4 / 12,
  xmax: 36 + 5 / 12,
  ymax: 0.5,
  width: 5,
  height: 4,
  colOffset: (36 + 180) * 12,
  rowOffset: (90 - 0.5) * 12,
};

const N = NaN;

/**
 * FIXTURE: per-cell ELEVATION and ELEV_ZONE on {@link FIXTURE_GRID}; the last row's two east cells unselected, one selected cell without elevation.
 * Keys: ISO3 (KEN everywhere selected) and ADM1_NAME_ALT (one selected cell without a unit).
 */
export const CELLS_KEN: CellResult = {
  grid: FIXTURE_GRID,
  mask: Uint8Array.from([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]),
  layers: [
    { code: 'ELEVATION', type: 'continuous', values: Float64Array.from([1523.5, 1610, 1702.25, 1800, 2950, 1400, 1488, N, 1650, 2100, 420, 480.5, 515, 1320, 1999, -12, 233, 901, N, N]) },
    { code: 'ELEV_ZONE', type: 'class', values: Float64Array.from([3, 3, 3, 3, 3, 2, 2, N, 3, 3, 1, 1, 2, 2, 3, 1, 1, 2, N, N]), classes: ELEV_ZONE_CLASSES },
  ],
  keys: [
    { code: 'ISO3', type: 'class', values: Float64Array.from([23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, N, N]), classes: [ISO3_CLASSES[0]] },
    { code: 'ADM1_NAME_ALT', type: 'class', values: Float64Array.from([101, 101, 103, 103, 103, 101, 101, 103, 103, 103, 102, 102, 102, 103, 103, 102, 102, N, N, N]), classes: ADM1_CLASSES },
  ],
  meta: metaOf('ELEVATION', 'ELEV_ZONE'),
  selection: { iso3: ['KEN'], pooled: false, ids: false, wkt: false },
};

/**
 * FIXTURE: {@link CELLS_KEN} as the engine gives it with `by = ADM1_NAME_ALT`: every cell
 * carries its group's summary (ELEVATION: the mean of the group's cells, rounded to 1
 * decimal; ELEV_ZONE: the group's majority class, ties to the larger class value); the
 * selected cell without a unit is the NA group.
 */
export const CELLS_KEN_ZONAL: CellResult = (() => {
  const adm1 = CELLS_KEN.keys![1].values;
  const elev: Record<string, number> = { 101: 1505.4, 102: 327.3, 103: 1931.6, NaN: 901 };
  const zone: Record<string, number> = { 101: 3, 102: 1, 103: 3, NaN: 2 };
  const per = (t: Record<string, number>) => Float64Array.from(adm1, (v, i) => (CELLS_KEN.mask[i] ? t[String(v)] : NaN));
  return { ...CELLS_KEN, layers: [{ ...CELLS_KEN.layers[0], values: per(elev) }, { ...CELLS_KEN.layers[1], values: per(zone) }] };
})();

/** FIXTURE: {@link CELLS_KEN} as the engine gives it without `by`: cell values, only the ISO3 key. */
export const CELLS_KEN_NOBY: CellResult = { ...CELLS_KEN, keys: CELLS_KEN.keys!.slice(0, 1) };

/** A fixed creation time for golden files. */
export const FIXED_NOW = new Date('2026-03-04T05:06:07Z');
