/**
 * The catalog of a table ingest (`vi.csv` with the original's fields): read whole (it is
 * small), UTF-8 or Latin-1 (noted), UTF-16 refused with a finding, parsed with papaparse,
 * fields and values trimmed, `NA` formulas empty, the leading `'` that the product's CSV writers put
 * before formula-like text (`'-6000|0|200`) removed.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import Papa from 'papaparse';
import { IndapiError } from '../../core/errors';
import type { Findings } from '../../core/ingest/findings';
import { restoreFormulaText } from '../../core/formats/csv';
import { decodeWhole, utf16Of } from './text';

/**
 * Reads the catalog.
 * @param path the catalog file
 * @param found findings (added to: the Latin-1 note, or the fatal finding when null is returned)
 * @returns the records and the field names in order, or null after a fatal finding (UTF-16,
 *   unparsable CSV, no varCode or aggFunR field)
 * @throws IndapiError IO when the file cannot be read
 */
export async function readCatalog(path: string, found: Findings): Promise<{ records: Record<string, string>[]; catFields: string[] } | null> {
  const name = basename(path);
  const bytes = await readFile(path).catch((e) => {
    throw new IndapiError('IO', `Cannot read the catalog ${path}: ${(e as Error).message}`);
  });
  const utf16 = utf16Of(bytes);
  if (utf16) {
    found.add({ kind: 'unreadable', severity: 'fatal', field: 'catalog', message: `The catalog ${name} is ${utf16} text; re-save it as UTF-8.` });
    return null;
  }
  const { text, encoding } = decodeWhole(bytes);
  if (encoding === 'latin1') found.add({ kind: 'encoding', severity: 'info', field: 'catalog', message: `The catalog ${name} is not valid UTF-8; it was read as Latin-1.` });
  const res = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  const bad = res.errors.find((e) => e.type !== 'Delimiter');
  const catFields = (res.meta.fields ?? []).map((f) => f.trim());
  if (bad || !catFields.includes('varCode') || !catFields.includes('aggFunR')) {
    found.add({ kind: 'unreadable', severity: 'fatal', field: bad ? undefined : 'varCode', row: bad ? (bad.row ?? 0) + 1 : undefined, message: bad ? `Cannot parse the catalog ${name}: ${bad.message} (record ${(bad.row ?? 0) + 1}).` : `The catalog ${name} lacks the varCode or aggFunR field.` });
    return null;
  }
  const records = res.data.map((r) => {
    const o: Record<string, string> = {};
    // a catalog written by this product (`npm run export`, a bundle's vi.csv) carries text that a
    // spreadsheet would run as a formula with a leading ' (csv.ts, OWASP): read it back as written
    for (const [k, v] of Object.entries(r)) o[k.trim()] = restoreFormulaText((v ?? '').trim());
    if (o.aggFunR === 'NA') o.aggFunR = '';
    return o;
  });
  return { records, catFields };
}
