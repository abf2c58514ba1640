/**
 * A layer drawn only inside a summary's domain (a one-interval map paints that interval's
 * cells in the summary's units, not in the neighbouring countries or the units left out):
 * each cell of the drawn level is kept when, at its centre, every key layer of the domain
 * (a class COG of the bundle such as ADM1_NAME_ALT) holds one of the domain's raster values;
 * every other cell becomes no data (NaN, drawn transparent). Pure: the levels are read by the
 * caller (workers/raster.worker.ts).
 */
import type { ClassEntry } from '../types';
import type { RasterLevel } from './mercator';

/**
 * The cells of a summary's domain: key layers (bundle class COG codes, e.g. ADM1_NAME_ALT)
 * with the raster values of the units inside it. A cell is inside when, for every entry, the
 * key layer's value at the cell is one of `values` (the entries are ANDed).
 */
export type CellDomain = Array<{ code: string; values: number[] }>;

/**
 * The domain of a summary's units on one key layer: each unit as its raster value in that
 * layer's class table. A number is taken as a raster value already (an ADM1/ADM2 choropleth's
 * keys); a text is looked up among the table's labels (a country's ISO3 code, e.g. "KEN" -> its
 * value in the bundle's classes/ISO3.csv). Units the table does not list are left out.
 * @param code the key layer (a class COG of the bundle: "ISO3", "ADM1_NAME_ALT", ...)
 * @param units the summary's units (raster values or labels)
 * @param table the key layer's class table (value, label)
 */
export function unitsDomain(code: string, units: Array<number | string>, table: ClassEntry[]): CellDomain {
  const byLabel = new Map(table.map((e) => [String(e.label), e.value]));
  const values = units.map((u) => (typeof u === 'number' ? u : byLabel.get(u))).filter((v): v is number => v !== undefined);
  return [{ code, values: [...new Set(values)] }];
}

/**
 * A short, stable text of a domain for style keys and tile URLs: each key layer's code with
 * its values sorted and runs written as ranges ("ADM1_NAME_ALT=120-127,131"); the units of
 * one country are one or a few runs of their class table.
 */
export function domainKey(domain: CellDomain): string {
  return domain.map((d) => {
    const v = [...new Set(d.values)].sort((a, b) => a - b);
    const runs: string[] = [];
    for (let i = 0; i < v.length;) {
      let j = i;
      while (j + 1 < v.length && v[j + 1] === v[j] + 1) j++;
      runs.push(j > i ? `${v[i]}-${v[j]}` : `${v[i]}`);
      i = j + 1;
    }
    return `${d.code}=${runs.join(',')}`;
  }).join(';');
}

/**
 * The pyramid level of a key layer to test a drawn level's cells against: the one of the same
 * cell size, else the coarsest finer one (each drawn cell's centre falls in one key cell), else
 * the finest.
 * @param keyCellDeg the key layer's cell size of each level, degrees, finest first
 * @param cellDeg the drawn level's cell size, degrees
 * @returns an index into `keyCellDeg`
 */
export function keyLevelFor(keyCellDeg: number[], cellDeg: number): number {
  let best = 0;
  for (let i = 0; i < keyCellDeg.length; i++) if (keyCellDeg[i] <= cellDeg * (1 + 1e-9)) best = i;
  return best;
}

/**
 * `level` with the cells outside the domain set to NaN (no data). Each key level is sampled at
 * the drawn cell's centre (nearest cell; a centre outside the key level is outside the domain);
 * when the key level has the drawn level's size and extent, cell for cell.
 * @param level the drawn layer's level (values row-major, north row first)
 * @param keys each key layer's level (same rule as `level`) and the raster values inside the domain
 * @returns a new level (same size, extent and array type); `level` is not changed
 */
export function maskToDomain(level: RasterLevel, keys: Array<{ level: RasterLevel; values: ReadonlySet<number> }>): RasterLevel {
  const { width, height, bbox } = level;
  const out = level.values instanceof Float64Array ? new Float64Array(level.values) : new Float32Array(level.values);
  const cw = (bbox[2] - bbox[0]) / width, ch = (bbox[3] - bbox[1]) / height;
  for (const k of keys) {
    const kl = k.level;
    const same = kl.width === width && kl.height === height && kl.bbox.every((b, i) => Math.abs(b - bbox[i]) < 1e-9);
    const kw = (kl.bbox[2] - kl.bbox[0]) / kl.width, kh = (kl.bbox[3] - kl.bbox[1]) / kl.height;
    const kCol = Int32Array.from({ length: width }, (_, c) => (same ? c : Math.floor((bbox[0] + (c + 0.5) * cw - kl.bbox[0]) / kw)));
    for (let r = 0; r < height; r++) {
      const kr = same ? r : Math.floor((kl.bbox[3] - (bbox[3] - (r + 0.5) * ch)) / kh);
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        if (Number.isNaN(out[i])) continue;
        const kc = kCol[c];
        const inKey = kr >= 0 && kr < kl.height && kc >= 0 && kc < kl.width && k.values.has(kl.values[kr * kl.width + kc]);
        if (!inKey) out[i] = NaN;
      }
    }
  }
  return { width, height, bbox, values: out };
}
