/**
 * Builds the engine the workers use over the bundle at a URL. Temporary stand-in until
 * `createEngine` lands: only the catalog methods work (vi.csv parsed here).
 */
import Papa from 'papaparse';
import type { CategoryRow, Engine } from '../core/api';
import { IndapiError } from '../core/errors';
import type { VarRecord } from '../core/types';

/** Creates an {@link Engine} reading the bundle under `dataBase` (URL ending in "/"). */
export function createWorkerEngine(dataBase: string): Engine {
  let cat: Promise<VarRecord[]> | null = null;
  const catalog = () => (cat ??= fetch(new URL('vi.csv', dataBase)).then(async (r) => {
    if (!r.ok) throw new IndapiError('IO', `Cannot read the catalog (HTTP ${r.status}).`);
    const res = Papa.parse<Record<string, string>>(await r.text(), { header: true, skipEmptyLines: true });
    return res.data.map((o) => ({ ...o, dec: Number(o.dec) || 0 }) as unknown as VarRecord);
  }));
  const missing = async (): Promise<never> => { throw new IndapiError('INTERNAL', 'The query engine is not available yet.'); };
  return {
    catalog,
    async category() {
      return (await catalog()).map((r): CategoryRow => ({ category: r.cat1, subcategory: r.cat2, item: r.cat3, code: r.varCode, label: r.varLabel }));
    },
    describe: missing, getLayer: missing, getLayerTable: missing, getLayerCells: missing, getLayerWKT: missing,
    classify: missing, similar: missing,
    async catalogCsv() { return (await fetch(new URL('vi.csv', dataBase))).text(); },
  };
}
