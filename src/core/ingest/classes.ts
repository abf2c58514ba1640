/**
 * Class tables, key layers and iso.csv of an ingested bundle (issue 9 item 1).
 *
 * - Text class columns: class values 1..n in sorted label order (JavaScript code-unit order,
 *   as R with `LC_COLLATE=C`), the text as label.
 * - Numeric class columns: the code is the class value; labels (and colours) from the
 *   record's pipe-separated classBreaks (values) / classLabels / classColors.
 * - Key layers: a unit is identified by its whole key: ISO3 by code; ADM0_NAME by (ISO3, name);
 *   ADM1 by (ISO3, ADM1 name); ADM2 by (ISO3, ADM1, ADM2); codes by (ISO3, code); values 1..n
 *   in sorted key order.
 *   Tables: ISO3 `value,label,color,name`; ADM0_NAME `value,label,color,iso3`; ADM1_NAME_ALT
 *   `value,label,color,iso3[,code]`; ADM2_NAME_ALT `value,label,color,iso3,adm1[,code]`;
 *   ADM1_CODE_ALT `value,label,color,iso3,name`; ADM2_CODE_ALT `value,label,color,iso3,adm1,name`.
 * - iso.csv: countries from ISO3 / ADM0_NAME (codes outside ISO 3166 such as XX0, ATF, ESH kept),
 *   regions SSA, EAF, MAF, SAF, WAF with the members of the embedded bundle's iso.csv that occur.
 */
import { serialiseIso } from '../bundle/tables-write';
import type { ClassEntry } from '../types';
import { CELL_SIZE_DEG, type GridDef } from '../grid';

/** ColorBrewer Set3 (12 qualitative colours), cycled for classes without colours. */
export const SET3 = ['#8dd3c7', '#ffffb3', '#bebada', '#fb8072', '#80b1d3', '#fdb462', '#b3de69', '#fccde5', '#d9d9d9', '#bc80bd', '#ccebc5', '#ffed6f'];

/** Separator of the parts of a composite key (never in a CSV field of the tables). */
export const KEY_SEP = '\u0001';

/** A class table with the map from first-appearance ids (1-based) to class values. */
export interface BuiltClasses {
  /** Table rows in value order. */
  table: ClassEntry[];
  /** remap[id] = class value of the dictionary entry with first-appearance id `id` (index 0 unused). */
  remap: Int32Array;
  /** Extra columns of the table after value,label,color, in order. */
  extras: string[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Class table of a text class column or a key layer from its dictionary.
 * @param code column code (decides the key layout, see the module comment)
 * @param keys dictionary keys in first-appearance order (id = index + 1); composite keys of key
 *   layers are joined with {@link KEY_SEP}
 * @param codeOf extra text per key: the country name of an ISO3 key; the code (ADM1_CODE_ALT /
 *   ADM2_CODE_ALT) of an ADM1 / ADM2 name key; the name of an ADM1 code key; name and ADM1 name
 *   (joined with {@link KEY_SEP}) of an ADM2 code key
 */
export function textClasses(code: string, keys: string[], codeOf?: Map<string, string>): BuiltClasses {
  const parts = keys.map((k) => k.split(KEY_SEP));
  const order = keys.map((_, i) => i);
  order.sort((a, b) => {
    const pa = parts[a];
    const pb = parts[b];
    for (let k = 0; k < Math.max(pa.length, pb.length); k++) {
      const c = cmp(pa[k] ?? '', pb[k] ?? '');
      if (c) return c;
    }
    return 0;
  });
  const remap = new Int32Array(keys.length + 1);
  const table: ClassEntry[] = [];
  let extras: string[] = [];
  order.forEach((i, j) => {
    const value = j + 1;
    remap[i + 1] = value;
    const p = parts[i];
    const e: ClassEntry = { value, label: p[p.length - 1], color: SET3[j % SET3.length] };
    if (code === 'ISO3') {
      e.name = codeOf?.get(keys[i]) ?? '';
      e.label = p[0];
      extras = ['name'];
    } else if (code === 'ADM0_NAME') {
      e.iso3 = p[0];
      extras = ['iso3'];
    } else if (code === 'ADM1_NAME_ALT') {
      e.iso3 = p[0];
      extras = ['iso3'];
      if (codeOf?.size) {
        e.code = codeOf.get(keys[i]) ?? '';
        extras = ['iso3', 'code'];
      }
    } else if (code === 'ADM2_NAME_ALT') {
      e.iso3 = p[0];
      e.adm1 = p[1];
      extras = ['iso3', 'adm1'];
      if (codeOf?.size) {
        e.code = codeOf.get(keys[i]) ?? '';
        extras = ['iso3', 'adm1', 'code'];
      }
    } else if (code === 'ADM1_CODE_ALT') {
      e.iso3 = p[0];
      e.label = p[1];
      e.name = codeOf?.get(keys[i]) ?? '';
      extras = ['iso3', 'name'];
    } else if (code === 'ADM2_CODE_ALT') {
      const [name, adm1] = (codeOf?.get(keys[i]) ?? '').split(KEY_SEP);
      e.iso3 = p[0];
      e.label = p[1];
      e.adm1 = adm1 ?? '';
      e.name = name ?? '';
      extras = ['iso3', 'adm1', 'name'];
    }
    table.push(e);
  });
  return { table, remap, extras };
}

/** How the class values of a column were matched to its record (said per column in the bundle's README). */
export type ClassRule = 'breaks' | 'labels-are-codes' | 'text-labels' | 'text-sorted';

/** Plain-language text of a {@link ClassRule}. */
export const CLASS_RULE_TEXT: Record<ClassRule, string> = {
  breaks: 'numeric codes matched to classBreaks (a code is the break value; its label and colour at the same position)',
  'labels-are-codes': 'numeric codes matched to classLabels (the original catalog\'s convention where classBreaks are positions 0..n-1 and classLabels list the codes themselves; colour at the label\'s position)',
  'text-labels': 'text values matched to classLabels (colour at the label\'s position; values 1..n in sorted label order)',
  'text-sorted': 'text values numbered 1..n in sorted order (labels are the text; the record has no matching classLabels)',
};

const splitList = (s: string | undefined): string[] => ((s ?? '').trim() === '' ? [] : (s ?? '').split('|').map((x) => x.trim()));

/**
 * Length mismatches of a record's classBreaks / classLabels / classColors (the original
 * catalog has records with e.g. 9 labels and 8 colours): a note, the missing colours are
 * generated (ColorBrewer Set3).
 * @param record the catalog record (text fields)
 * @returns the message, or null when the lists agree (an empty list agrees with any)
 */
export function classListMismatch(record: Record<string, string>): string | null {
  const b = splitList(record.classBreaks).length, l = splitList(record.classLabels).length, c = splitList(record.classColors).length;
  const bad = (l && b && b !== l && b !== l + 1) || (l && c && c !== l) || (!l && b && c && c !== b);
  if (!bad) return null;
  return `classBreaks has ${b} entries, classLabels ${l}, classColors ${c}; classes without a colour get generated colours (ColorBrewer Set3).`;
}

/**
 * Class table of a numeric class column from its record. Two conventions of the original
 * catalog (issue 15 item 4): classBreaks are the class values and classLabels their labels
 * (rule `breaks`), or classBreaks are positions and classLabels the codes themselves
 * (`labels-are-codes`, e.g. FS_2012: breaks 0|1|..|12, labels 1|2|3|5|..|16). The rule that
 * labels every value present is taken (`breaks` first); when neither does, the one labelling
 * more of them, and the rest are returned as unlabelled. Breaks 0..n-1 beside n integer labels
 * that differ from them are taken as positions whenever the labels cover every value present. Colours from classColors at the same
 * position, generated (Set3) where the list is short.
 * @param record the catalog record (text fields)
 * @param present class values that occur in the column
 * @returns the table (labelled values that occur or are listed), the values without a label, the rule used
 */
export function numericClasses(record: Record<string, string>, present: Iterable<number>): { table: ClassEntry[]; unlabelled: number[]; rule: ClassRule } {
  const vals = (record.classBreaks ?? '').split('|').map((s) => s.trim());
  const labs = (record.classLabels ?? '').split('|').map((s) => s.trim());
  const cols = (record.classColors ?? '').split('|');
  const colour = (i: number, k: number) => (cols[i] ?? '').trim() || SET3[k % SET3.length];
  const build = (keys: string[], label: (i: number) => string): Map<number, ClassEntry> => {
    const m = new Map<number, ClassEntry>();
    keys.forEach((v, i) => {
      const n = Number(v);
      if (v === '' || !Number.isInteger(n) || m.has(n)) return;
      const lab = label(i);
      if (!lab) return;
      m.set(n, { value: n, label: lab, color: colour(i, m.size) });
    });
    return m;
  };
  const byBreak = build(vals, (i) => labs[i] ?? '');
  const byLabel = labs.every((l) => l === '' || /^-?\d+$/.test(l)) ? build(labs, (i) => labs[i]) : new Map<number, ClassEntry>();
  const values = [...new Set(present)];
  const missing = (m: Map<number, ClassEntry>) => values.filter((v) => !m.has(v)).sort((a, b) => a - b);
  const mb = missing(byBreak), ml = missing(byLabel);
  // Breaks 0, 1, .., n-1 beside n integer labels that differ from them: the positions convention.
  const positions = byLabel.size > 0 && vals.length === labs.length && vals.every((v, i) => v === String(i)) && labs.some((l, i) => l !== vals[i]);
  const useLabels = byLabel.size > 0 && (ml.length < mb.length || (positions && ml.length === 0));
  const chosen = useLabels ? byLabel : byBreak;
  const table = [...chosen.values()].sort((a, b) => a.value - b.value);
  return { table, unlabelled: useLabels ? ml : mb, rule: useLabels ? 'labels-are-codes' : 'breaks' };
}

/**
 * Colours of a text class column from its record: a text value equal to one of the record's
 * classLabels takes the colour at that position (issue 15 item 4: FS_2012_TX holds the labels
 * "1. Irrigated", ...).
 * @param table the class table from {@link textClasses} (colours replaced in place)
 * @param record the catalog record
 * @returns the rule used: `text-labels` when at least one value matched, else `text-sorted`
 */
export function colourTextClasses(table: ClassEntry[], record: Record<string, string> | undefined): ClassRule {
  const labs = splitList(record?.classLabels);
  const cols = splitList(record?.classColors);
  let hit = 0;
  for (const e of table) {
    const i = labs.indexOf(e.label);
    if (i < 0) continue;
    hit++;
    if (cols[i]) e.color = cols[i];
  }
  return hit ? 'text-labels' : 'text-sorted';
}


/**
 * Regions of the embedded bundle's iso.csv (UN M49 subregions of Africa south of the Sahara),
 * plus the two territories the original's region exports carry beside its 49 countries, placed
 * as M49 places them: British Indian Ocean Territory (IOT) in Eastern Africa and Saint Helena,
 * Ascension and Tristan da Cunha (SHN) in Western Africa. A region lists only the countries
 * present in the ingested table.
 */
export const REGIONS: Array<{ code: string; name: string; members: string[] }> = [
  { code: 'SSA', name: 'Africa south of the Sahara', members: 'AGO|BDI|BEN|BFA|BWA|CAF|CIV|CMR|COD|COG|COM|CPV|DJI|ERI|ETH|GAB|GHA|GIN|GMB|GNB|GNQ|IOT|KEN|LBR|LSO|MDG|MLI|MOZ|MRT|MUS|MWI|NAM|NER|NGA|RWA|SDN|SEN|SHN|SLE|SOM|SSD|STP|SWZ|SYC|TCD|TGO|TZA|UGA|ZAF|ZMB|ZWE'.split('|') },
  { code: 'EAF', name: 'Eastern Africa', members: 'BDI|COM|DJI|ERI|ETH|IOT|KEN|MDG|MOZ|MUS|MWI|RWA|SOM|SSD|SYC|TZA|UGA|ZMB|ZWE'.split('|') },
  { code: 'MAF', name: 'Middle Africa', members: 'AGO|CAF|CMR|COD|COG|GAB|GNQ|STP|TCD'.split('|') },
  { code: 'SAF', name: 'Southern Africa', members: 'BWA|LSO|NAM|SWZ|ZAF'.split('|') },
  { code: 'WAF', name: 'Western Africa', members: 'BEN|BFA|CIV|CPV|GHA|GIN|GMB|GNB|LBR|MLI|MRT|NER|NGA|SEN|SHN|SLE|TGO'.split('|') },
];

/** Cells and window extent of one country, accumulated while rows are read. */
export interface CountryCells {
  /** Name (ADM0_NAME of its first row). */
  name: string;
  /** Number of cells. */
  cells: number;
  /** Window column/row extent: [minCol, minRow, maxCol, maxRow]. */
  ext: [number, number, number, number];
}

/**
 * iso.csv text: one row per country (sorted by code), then the regions that have members.
 * Columns code,name,type,members,xmin,ymin,xmax,ymax,cells; bounding boxes in degrees
 * (cell edges, 6 decimals) as the embedded iso.csv.
 */
export function isoCsv(grid: GridDef, countries: Map<string, CountryCells>): string {
  const f = (x: number) => String(Math.round(x * 1e6) / 1e6);
  const bbox = (e: [number, number, number, number]) => [
    f(grid.xmin + e[0] * CELL_SIZE_DEG), f(grid.ymax - (e[3] + 1) * CELL_SIZE_DEG), f(grid.xmin + (e[2] + 1) * CELL_SIZE_DEG), f(grid.ymax - e[1] * CELL_SIZE_DEG),
  ];
  const rows: string[][] = [];
  const codes = [...countries.keys()].sort(cmp);
  for (const c of codes) {
    const k = countries.get(c)!;
    rows.push([c, k.name, 'country', c, ...bbox(k.ext), String(k.cells)]);
  }
  for (const r of REGIONS) {
    const members = r.members.filter((m) => countries.has(m));
    if (!members.length) continue;
    const ext: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    let cells = 0;
    for (const m of members) {
      const k = countries.get(m)!;
      cells += k.cells;
      ext[0] = Math.min(ext[0], k.ext[0]);
      ext[1] = Math.min(ext[1], k.ext[1]);
      ext[2] = Math.max(ext[2], k.ext[2]);
      ext[3] = Math.max(ext[3], k.ext[3]);
    }
    rows.push([r.code, r.name, 'region', members.join('|'), ...bbox(ext), String(cells)]);
  }
  return serialiseIso(rows);
}
