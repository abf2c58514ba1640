/**
 * Boundary ingest (issue 9 item 5): `--boundaries <geojson|gpkg> --level 1|2 [--name-field F]`
 * rasterises administrative units into the key layers `ADM<level>_NAME_ALT` (and
 * `ADM<level>_CODE_ALT` with `--code-field`) of a bundle:
 *
 * 1. `ogr2ogr -t_srs EPSG:4326 -f GeoJSON` reads any OGR source (GeoJSON, GeoPackage, ...) in
 *    longitude/latitude;
 * 2. each feature gets a running id, and `gdal_rasterize` burns the ids on a grid 5 times finer
 *    than the bundle's (1/60 degree: 25 sub-cells per cell, the sub-cell centre rule);
 * 3. each cell takes the unit covering most of its sub-cells (ties: the first feature); with an
 *    ISO3 layer in the bundle only its land cells are kept, else a cell needs units on more than
 *    half of its sub-cells;
 * 4. the units' cells are traced into `basemap/admin<level>.geojson` (src/core/formats/outlines.ts),
 *    so the app's choropleth and the plots draw the units as the layer has them.
 *
 * A unit is its whole key (country, for level 2 the first-level name, and name), so same-named
 * units stay apart; features with the same key (parts of one unit) share one class value.
 * Class values are numbered by ISO3, parent, name. The unit's country is its `--iso3-field`
 * (default: the first of ISO3, ISO, ADM0_A3, adm0_a3, iso_a3, GID_0, shapeGroup present), else the
 * bundle's most frequent ISO3 under the unit.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { nodeInflate } from '../engine';
import { CogStore } from '../../core/cog/store';
import { parseClassTable } from '../../core/bundle';
import { IndapiError } from '../../core/errors';
import { OUTLINE_FILES, outlineAttribution, outlineDescription, outlineUnits, writeOutlines } from '../../core/formats/outlines';
import type { ClassEntry } from '../../core/types';
import { fileSourceFactory } from '../file-source';
import { addLayersToBundle, bundleGrid, CLASS_COLORS, type AddedLayer } from './gdal-bundle';
import { requireGdal, runGdal, writeGridCog } from './gdal-tools';

/** Options of {@link ingestBoundaries}. */
export interface IngestBoundariesOptions {
  /** Boundary file: GeoJSON, GeoPackage or any OGR vector source. */
  boundaries: string;
  /** Administrative level of the units: 1 or 2. */
  level: 1 | 2;
  /** Property holding the unit name (default: the first of ADM<l>_NAME_ALT, ADM<l>_NAME, NAME_<l>, shapeName, name, NAME present). */
  nameField?: string;
  /** Property holding a unit code (writes ADM<l>_CODE_ALT too). */
  codeField?: string;
  /** Property holding the ISO3 code of the unit's country. */
  iso3Field?: string;
  /** Level 2: property holding the first-level unit name (default: ADM1_NAME_ALT, ADM1_NAME, NAME_1 when present). */
  parentField?: string;
  /** Bundle folder to add the key layers to. */
  out: string;
  /** Sub-cells per cell side; default 5. */
  factor?: number;
  /** Aborts the run. */
  signal?: AbortSignal;
}

/** What {@link ingestBoundaries} added. */
export interface IngestBoundariesResult {
  /** Codes of the layers written. */
  codes: string[];
  /** Units (classes) with at least one cell. */
  units: number;
  /** Cells given a unit. */
  cells: number;
  /** Units of the file that got no cell (too small or outside the land), by name. */
  empty: string[];
}

interface Feature {
  type: 'Feature';
  properties: Record<string, unknown> | null;
  geometry: unknown;
}

function pickField(props: Record<string, unknown>, given: string | undefined, candidates: string[], what: string, required: boolean): string | undefined {
  if (given) {
    if (!(given in props)) throw new IndapiError('BAD_ARGUMENT', `The boundaries have no property '${given}' (${what}); they have: ${Object.keys(props).join(', ')}.`);
    return given;
  }
  const f = candidates.find((c) => c in props);
  if (!f && required) throw new IndapiError('BAD_ARGUMENT', `Cannot tell which property holds the ${what}: pass it (properties: ${Object.keys(props).join(', ')}).`);
  return f;
}

/**
 * Rasterises boundaries into key layers of a bundle.
 * @throws IndapiError IO when GDAL is missing or fails, BAD_ARGUMENT for a bad level or field, ABORTED on abort
 */
export async function ingestBoundaries(opts: IngestBoundariesOptions): Promise<IngestBoundariesResult> {
  if (opts.level !== 1 && opts.level !== 2) throw new IndapiError('BAD_ARGUMENT', `--level must be 1 or 2, got ${String(opts.level)}.`);
  requireGdal(['ogr2ogr', 'gdal_rasterize'], '--boundaries');
  if (!existsSync(opts.boundaries)) throw new IndapiError('IO', `The boundaries ${opts.boundaries} do not exist.`);
  const L = opts.level;
  const F = opts.factor ?? 5;
  const grid = await bundleGrid(opts.out);
  const tmp = await mkdtemp(join(tmpdir(), 'indapi3-bounds-'));
  try {
    await runGdal('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', join(tmp, 'in.geojson'), opts.boundaries], opts.signal);
    const fc = JSON.parse(await readFile(join(tmp, 'in.geojson'), 'utf8')) as { features: Feature[] };
    const feats = fc.features.filter((f) => f.geometry);
    if (!feats.length) throw new IndapiError('BAD_ARGUMENT', `The boundaries ${opts.boundaries} have no features with a geometry.`);
    const props0 = feats[0].properties ?? {};
    const nameF = pickField(props0, opts.nameField, [`ADM${L}_NAME_ALT`, `ADM${L}_NAME`, `NAME_${L}`, 'shapeName', 'name', 'NAME'], 'unit name (--name-field)', true)!;
    const codeF = opts.codeField ? pickField(props0, opts.codeField, [], 'unit code (--code-field)', true) : undefined;
    const isoF = pickField(props0, opts.iso3Field, ['ISO3', 'ISO', 'ADM0_A3', 'adm0_a3', 'iso_a3', 'GID_0', 'shapeGroup'], 'ISO3 code', false);
    const parentF = L === 2 ? pickField(props0, opts.parentField, ['ADM1_NAME_ALT', 'ADM1_NAME', 'NAME_1'], 'first-level unit name', false) : undefined;
    const text = (f: Feature, k?: string) => (k ? String(f.properties?.[k] ?? '').trim() : '');
    // features -> units (whole key)
    const unitKey = feats.map((f) => [text(f, isoF), text(f, parentF), text(f, nameF)].join('\u0000'));
    const burn = feats.map((f, i) => ({ type: 'Feature', properties: { _uid: i + 1 }, geometry: f.geometry }));
    await writeFile(join(tmp, 'uid.geojson'), JSON.stringify({ type: 'FeatureCollection', features: burn }));
    const W = grid.width * F, H = grid.height * F;
    await runGdal('gdal_rasterize', ['-q', '-a', '_uid', '-ot', 'UInt32', '-a_nodata', '0', '-init', '0', '-te', String(grid.xmin), String(grid.ymin), String(grid.xmax), String(grid.ymax),
      '-ts', String(W), String(H), '-of', 'GTiff', '-co', 'TILED=YES', '-co', 'COMPRESS=DEFLATE', join(tmp, 'uid.geojson'), join(tmp, 'uid.tif')], opts.signal);
    const store = new CogStore({ source: fileSourceFactory(tmp), inflate: nodeInflate, cacheBytes: 64 * 2 ** 20 });
    let sub: Int32Array;
    let iso: Int32Array | null = null;
    let isoLabels = new Map<number, string>();
    try {
      sub = await store.readInt('uid.tif', [0, 0, W, H]);
    } finally {
      await store.close();
    }
    if (existsSync(join(opts.out, 'cog/ISO3.tif'))) {
      const bs = new CogStore({ source: fileSourceFactory(opts.out), inflate: nodeInflate, cacheBytes: 8 * 2 ** 20 });
      try {
        iso = await bs.readInt('cog/ISO3.tif', [0, 0, grid.width, grid.height]);
      } finally {
        await bs.close();
      }
      const p = join(opts.out, 'classes/ISO3.csv');
      if (existsSync(p)) {
        isoLabels = new Map(parseClassTable(await readFile(p, 'utf8')).map((c) => [c.value, c.label]));
      }
    }
    // majority of sub-cells per cell (ties: the first feature)
    const cellFeat = new Int32Array(grid.width * grid.height).fill(-1);
    const counts = new Map<number, number>();
    for (let r = 0; r < grid.height; r++) {
      for (let c = 0; c < grid.width; c++) {
        counts.clear();
        let covered = 0;
        for (let dy = 0; dy < F; dy++) {
          const base = (r * F + dy) * W + c * F;
          for (let dx = 0; dx < F; dx++) {
            const u = sub[base + dx];
            if (u > 0) {
              counts.set(u, (counts.get(u) ?? 0) + 1);
              covered++;
            }
          }
        }
        if (!covered) continue;
        const i = r * grid.width + c;
        if (iso ? iso[i] < 0 : covered * 2 <= F * F) continue;
        let best = -1, bestN = 0;
        for (const [u, n] of counts) if (n > bestN || (n === bestN && u < best)) { best = u; bestN = n; }
        cellFeat[i] = best - 1;
      }
    }
    // units: whole keys, numbered by ISO3, parent, name
    const keys = [...new Set(unitKey)];
    const unitOf = new Map<string, number>();
    const isoVotes = keys.map(() => new Map<string, number>());
    const cellsOf = new Array<number>(keys.length).fill(0);
    const keyIndex = new Map(keys.map((k, i) => [k, i]));
    for (let i = 0; i < cellFeat.length; i++) {
      const f = cellFeat[i];
      if (f < 0) continue;
      const k = keyIndex.get(unitKey[f])!;
      cellsOf[k]++;
      if (iso && iso[i] >= 0) {
        const lab = isoLabels.get(iso[i]) ?? '';
        isoVotes[k].set(lab, (isoVotes[k].get(lab) ?? 0) + 1);
      }
    }
    const unitIso = keys.map((k, i) => {
      const given = k.split('\u0000')[0];
      if (given) return given;
      let best = '', bestN = 0;
      for (const [lab, n] of isoVotes[i]) if (n > bestN || (n === bestN && lab < best)) { best = lab; bestN = n; }
      return best;
    });
    const order = keys.map((_, i) => i).filter((i) => cellsOf[i] > 0);
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    order.sort((a, b) => cmp(unitIso[a], unitIso[b]) || cmp(keys[a].split('\u0000')[1], keys[b].split('\u0000')[1]) || cmp(keys[a].split('\u0000')[2], keys[b].split('\u0000')[2]));
    order.forEach((k, v) => unitOf.set(keys[k], v + 1));
    const empty = keys.filter((_, i) => cellsOf[i] === 0).map((k) => k.split('\u0000').filter(Boolean).join(' / '));
    const values = new Int32Array(cellFeat.length).fill(-1);
    let cells = 0;
    for (let i = 0; i < cellFeat.length; i++) if (cellFeat[i] >= 0) { values[i] = unitOf.get(unitKey[cellFeat[i]])!; cells++; }
    const codeOfKey = new Map<string, string>();
    if (codeF) feats.forEach((f, i) => { if (!codeOfKey.has(unitKey[i])) codeOfKey.set(unitKey[i], text(f, codeF)); });
    const entry = (k: number, v: number, label: string): ClassEntry => {
      const [, parent, name] = keys[k].split('\u0000');
      const e: ClassEntry = { value: v, label, color: CLASS_COLORS[(v - 1) % CLASS_COLORS.length] };
      if (codeF) e[label === name ? 'code' : 'name'] = label === name ? codeOfKey.get(keys[k]) ?? '' : name;
      e.iso3 = unitIso[k];
      if (L === 2) e.adm1 = parent;
      e.cells = cellsOf[k];
      return e;
    };
    const nameClasses = order.map((k, i) => entry(k, i + 1, keys[k].split('\u0000')[2]));
    const type = order.length < 255 ? 'Byte' : 'UInt16';
    const noData = type === 'Byte' ? 255 : 65535;
    await mkdir(join(opts.out, 'cog'), { recursive: true });
    const src = basename(opts.boundaries);
    const how = `Rasterised from ${src} (property ${nameF}) with gdal_rasterize on a grid ${F} times finer than the 5-arc-minute grid (1/${12 * F} degree, ${F * F} sub-cells per cell, sub-cell centre rule); ` +
      `each cell takes the unit covering most of its sub-cells (ties: the first feature)${iso ? ', land cells of the bundle (cells with an ISO3) only' : ', cells more than half covered only'}. ` +
      `A unit is identified by its whole key (country${L === 2 ? ', first-level unit' : ''}, name).`;
    const base = (code: string, label: string, title: string): Record<string, string> => ({
      varCode: code, varLabel: label, varTitle: title, varDesc: how, unit: '', type: 'class', dec: '0',
      aggFunR: `names(sort(table(${code}), decreasing=T)[1])`, classBreaks: '', classLabels: '', classColors: '',
      cat1: 'Administrative', cat2: L === 1 ? 'First-level units' : 'Second-level units', cat3: label, year: '', yearEnd: '',
      sources: src, sourceMini: src, owner: '', citation: '', license: '', version: '1.0', published: new Date().toISOString().slice(0, 10),
      dataType: type, noData: String(noData), isDomain: 'TRUE',
    });
    const layers: AddedLayer[] = [];
    const nameCode = `ADM${L}_NAME_ALT`;
    await writeGridCog(grid, values, type, noData, join(tmp, 'name'), join(opts.out, 'cog', `${nameCode}.tif`), opts.signal);
    layers.push({ record: base(nameCode, `Admin-${L} unit name`, L === 1 ? 'First-level administrative unit (name)' : 'Second-level administrative unit (name)'), classes: nameClasses });
    if (codeF) {
      const code = `ADM${L}_CODE_ALT`;
      const codeClasses = order.map((k, i) => entry(k, i + 1, codeOfKey.get(keys[k]) ?? ''));
      await writeGridCog(grid, values, type, noData, join(tmp, 'code'), join(opts.out, 'cog', `${code}.tif`), opts.signal);
      layers.push({ record: base(code, `Admin-${L} unit code`, L === 1 ? 'First-level administrative unit (code)' : 'Second-level administrative unit (code)'), classes: codeClasses });
    }
    // Outlines of the units as the bundle has them (traced from the cells, so the app's choropleth matches the layer).
    const outline = OUTLINE_FILES[L];
    await mkdir(join(opts.out, 'basemap'), { recursive: true });
    await writeFile(join(opts.out, outline), writeOutlines(grid, values, outlineUnits(nameClasses, L), { noData: -1, description: outlineDescription(nameCode, src), attribution: outlineAttribution(L, src), signal: opts.signal }));
    await addLayersToBundle(opts.out, layers, [outline]);
    return { codes: layers.map((l) => l.record.varCode), units: order.length, cells, empty };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
