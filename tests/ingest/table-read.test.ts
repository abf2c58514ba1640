/**
 * The text-table reader of the ingest (src/node/ingest/table-source.ts), issue 15 items 2
 * and 7: every character of a table is parsed once (no re-parse of a chunk on back-pressure,
 * whatever the consumer does), rows split across read chunks and quoted fields holding line
 * breaks come out whole, and a row that never ends stops with a clear message instead of
 * building a string past V8's limit. Tables are written by the tests (made-up values).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { serializeR, type RValue } from '../../src/core/formats/rds';
import { SPILL_RESERVE_BYTES, TEXT_CHUNK_BYTES, openTable } from '../../src/node/ingest/table-source';

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

/** The first bytes of an XDR .rds (version 3, UTF-8) of a data.frame of two double columns declaring `n` values each. */
function bombHead(n: number): Buffer {
  const b = Buffer.alloc(2 + 16 + 5 + 16);
  b.write('X\n', 0, 'latin1');
  [3, 0x040300, 0x030500, 5].forEach((v, i) => b.writeInt32BE(v, 2 + 4 * i));
  b.write('UTF-8', 18, 'latin1');
  [19 | 512, 2, 14, n].forEach((v, i) => b.writeInt32BE(v, 23 + 4 * i));
  return b;
}

describe('.rds tables (issue 25 item 5)', () => {
  it('refuses a gzip bomb as soon as a column longer than the global grid is declared, before its data', async () => {
    const path = join(dir, 'bomb.rds');
    writeFileSync(path, gzipSync(Buffer.concat([bombHead(150_000_000), Buffer.alloc(4 << 20)])));
    const spills = () => readdirSync(dir).filter((f) => f.includes('.rds-'));
    const t0 = performance.now();
    await expect(openTable(path, { spillParent: dir })).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringMatching(/bomb\.rds is not a readable R data file: a vector of 150000000 items .* more than the 9331200 cells/) });
    expect(performance.now() - t0).toBeLessThan(5000); // a generous bound for a busy machine; the run reads a few KB
    expect(spills()).toEqual([]);
  });

  it('refuses a table whose spill would not fit in the free space beside the output', async () => {
    const df: RValue = {
      type: 'list',
      values: [{ type: 'double', values: Array.from({ length: 1000 }, (_, i) => i) }, { type: 'double', values: Array.from({ length: 1000 }, (_, i) => i / 2) }],
      attrs: [['names', { type: 'character', values: ['CELL5M', 'V'] }], ['class', { type: 'character', values: ['data.frame'] }], ['row.names', { type: 'integer', values: [null, -1000] }]],
    };
    const path = join(dir, 'small.rds');
    writeFileSync(path, gzipSync(serializeR(df)));
    await expect(openTable(path, { spillParent: dir, freeBytes: () => SPILL_RESERVE_BYTES + 12_000 })).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringMatching(/small\.rds needs more than 0 MB of temporary space beside the output folder/) });
    const ok = await openTable(path, { spillParent: dir, freeBytes: () => SPILL_RESERVE_BYTES + 16_000 });
    expect(ok.header).toEqual(['CELL5M', 'V']);
    await ok.close();
  });
});
