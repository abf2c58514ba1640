/**
 * Golden tests: each folder of tests/engine/golden holds `input.json`
 * (`{ method, args }`) and `expected.json` (the result, or `{ error: { code, message } }`).
 * Run with UPDATE=1 to (re)write the expected files after checking the differences.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { isIndapiError } from '../../src/core/errors';

const DIR = join(__dirname, 'golden');
const engine = createNodeEngine(join(__dirname, 'fixtures/bundle'));
const UPDATE = process.env.UPDATE === '1';

async function run(method: string, args: unknown): Promise<unknown> {
  try {
    const fn = (engine as any)[method] as (a: unknown) => Promise<any>;
    if (method === 'describe') return (await fn.call(engine, args)).map((r: Record<string, string>) => ({ ...r, DownloadedOn: '<today>' }));
    const res = await fn.call(engine, args);
    if (res && typeof res === 'object' && 'columns' in res) {
      return { rows: res.rows, columns: res.columns.map((c: any) => `${c.name}:${c.role}:${c.type}`), meta: res.meta.map((m: any) => m.varCode) };
    }
    if (res && typeof res === 'object' && 'meta' in res && 'data' in res) {
      return { ...res, meta: res.meta.map((r: Record<string, string>) => ({ ...r, DownloadedOn: '<today>' })) };
    }
    return res;
  } catch (e) {
    if (isIndapiError(e)) return { error: { code: e.code, message: e.message } };
    throw e;
  }
}

describe('golden engine results (fixture bundle)', () => {
  const cases = readdirSync(DIR).filter((d) => existsSync(join(DIR, d, 'input.json'))).sort();
  it('has cases', () => expect(cases.length).toBeGreaterThan(20));
  for (const name of cases) {
    it(name, async () => {
      const input = JSON.parse(readFileSync(join(DIR, name, 'input.json'), 'utf8'));
      const got = JSON.parse(JSON.stringify(await run(input.method, input.args)));
      const file = join(DIR, name, 'expected.json');
      if (!UPDATE && !existsSync(file)) throw new Error(`${name}: no expected.json; run with UPDATE=1 and review it`);
      if (UPDATE) writeFileSync(file, JSON.stringify(got, null, 1) + '\n');
      const expected = JSON.parse(readFileSync(file, 'utf8'));
      expect(got).toEqual(expected);
      // never NaN; null only as the `by` key of R's NA group (cells outside every interval / class)
      expect(JSON.stringify(got)).not.toMatch(/NaN/);
      const rows = Array.isArray(got) ? got : (got as any)?.rows ?? (got as any)?.data ?? [];
      for (const r of rows) for (const [k, v] of Object.entries(r)) if (v === null) expect(input.args.by ? [].concat(Array.isArray(input.args.by) ? input.args.by : Object.keys(input.args.by)).map((b: string) => [b, `${b}_by`]).flat() : [], `${name}: null ${k}`).toContain(k);
    });
  }
});
