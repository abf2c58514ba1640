/**
 * The text-table reader of the ingest (src/node/ingest/table-source.ts), issue 15 items 2
 * and 7: every character of a table is parsed once (no re-parse of a chunk on back-pressure,
 * whatever the consumer does), rows split across read chunks and quoted fields holding line
 * breaks come out whole, and a row that never ends stops with a clear message instead of
 * building a string past V8's limit. Tables are written by the tests (made-up values).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_CHUNK_BYTES, openTable } from '../../src/node/ingest/table-source';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'table-read-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A made-up narrow table of `n` rows with quoted strings (one with a line break every 997 rows). */
function narrow(n: number): string {
  const lines = ['"CELL5M","X","Y","ISO3","ADM0_NAME","ADM1_NAME_ALT","ADM2_NAME_ALT","V"'];
  for (let i = 0; i < n; i++) lines.push(`${i},1.5,2.5,"CIV","Côte d'Ivoire","Région ${i % 17}","${i % 997 === 0 ? 'two\nlines' : `Dist "${i % 5}"`.replace(/"/g, '""')}",${i % 3 ? '' : i / 10}`);
  return lines.join('\n') + '\n';
}

describe('text table reader', () => {
  it('parses every character once, with a consumer that yields to the event loop after every row', async () => {
    const text = narrow(60000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * TEXT_CHUNK_BYTES);
    const path = join(dir, 'narrow.csv');
    writeFileSync(path, text);
    // Count the characters papaparse's Parser is given.
    const Orig = Papa.Parser;
    let parsed = 0;
    class Counting extends Orig {
      constructor(cfg: Papa.ParseConfig) {
        super(cfg);
        const inner = this.parse.bind(this);
        this.parse = (input: string, base: number, ignoreLast: boolean) => {
          parsed += input.length;
          return inner(input, base, ignoreLast);
        };
      }
    }
    (Papa as { Parser: typeof Orig }).Parser = Counting;
    try {
      const t = await openTable(path);
      const rows: string[][] = [];
      for await (const r of t.rows({ textColumns: [], labelColumns: new Set() })) {
        rows.push(r as string[]);
        await new Promise((res) => setImmediate(res));
      }
      await t.close();
      const want = Papa.parse<string[]>(text, { skipEmptyLines: true }).data.slice(1);
      expect(rows).toEqual(want);
      // Each chunk once, plus the carried partial last row of each chunk.
      expect(parsed).toBeGreaterThanOrEqual(text.length - 200);
      expect(parsed).toBeLessThan(text.length * 1.05);
    } finally {
      (Papa as { Parser: typeof Orig }).Parser = Orig;
    }
  });

  it('reads CRLF tables without a trailing \\r in the last field', async () => {
    const path = join(dir, 'crlf.csv');
    writeFileSync(path, narrow(50).replace(/\n(?=\d|$)/g, '\r\n'));
    const t = await openTable(path);
    const rows: string[][] = [];
    for await (const r of t.rows({ textColumns: [], labelColumns: new Set() })) rows.push(r as string[]);
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => !r[7].endsWith('\r'))).toBe(true);
    expect(rows[3][7]).toBe('0.3');
  });

  it('stops a row that never ends (an unclosed quote) with a clear message, not a string-length crash', async () => {
    const path = join(dir, 'unclosed.csv');
    writeFileSync(path, narrow(3) + `9,1.5,2.5,"CIV","${'x'.repeat(3 * TEXT_CHUNK_BYTES)}\n1,2,3\n`);
    const t = await openTable(path, { maxRowChars: TEXT_CHUNK_BYTES });
    const go = async () => {
      for await (const _r of t.rows({ textColumns: [], labelColumns: new Set() })) void _r;
    };
    await expect(go()).rejects.toThrow(/has a row longer than 1 MB near byte \d+ \(an unclosed quote, or no line breaks\)/);
    await t.close();
  });
});
