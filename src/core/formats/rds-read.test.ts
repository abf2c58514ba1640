import { describe, expect, it } from 'vitest';
import { serializeR, serializeRData, type RValue } from './rds';
import { readRdsTable, type RColumn } from './rds-read';

/** A FIXTURE data.frame (made-up values): double, integer, character, factor columns with NA. */
const DF: RValue = {
  type: 'list',
  values: [
    { type: 'double', values: [1.5, null, -3] },
    { type: 'integer', values: [7, null, 9] },
    { type: 'character', values: ['Côte d’Ivoire', null, 'São Tomé'] },
    { type: 'integer', values: [2, 1, null], attrs: [['levels', { type: 'character', values: ['Humid', 'Arid'] }], ['class', { type: 'character', values: ['factor'] }]] },
  ],
  attrs: [
    ['names', { type: 'character', values: ['d', 'i', 's', 'f'] }],
    ['class', { type: 'character', values: ['data.frame'] }],
    ['row.names', { type: 'integer', values: [null, -3] }],
  ],
};

async function* pieces(b: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < b.length; i += size) yield b.slice(i, i + size);
}

async function read(b: Uint8Array, size = 1 << 16) {
  const cols: RColumn[] = [];
  const t = await readRdsTable(pieces(b, size), { what: 'fixture.rds', onColumn: (i, c) => void (cols[i] = c) });
  return { t, cols };
}

describe('R serialization reader', () => {
  for (const size of [1, 3, 7, 1 << 16]) {
    it(`reads a data.frame's columns and names (input in pieces of ${size} bytes)`, async () => {
      const { t, cols } = await read(serializeR(DF), size);
      expect(t).toEqual({ names: ['d', 'i', 's', 'f'], rows: 3, classes: ['data.frame'], version: 3 });
      expect(cols[0]).toEqual({ kind: 'double', values: new Float64Array([1.5, NaN, -3]) });
      expect(cols[1]).toEqual({ kind: 'integer', values: new Int32Array([7, -2147483648, 9]) });
      expect(cols[2]).toEqual({ kind: 'string', values: ['Côte d’Ivoire', null, 'São Tomé'] });
      expect(cols[3]).toEqual({ kind: 'factor', codes: new Int32Array([2, 1, -2147483648]), levels: ['Humid', 'Arid'] });
    });
  }

  it('reads the first object of an RData (save()) stream', async () => {
    const { t } = await read(serializeRData([['cells', DF]]));
    expect(t.names).toEqual(['d', 'i', 's', 'f']);
  });

  it('refuses truncated streams, other objects and ASCII serialization with UNPARSABLE', async () => {
    const b = serializeR(DF);
    await expect(read(b.subarray(0, b.length - 20))).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringMatching(/fixture\.rds.*ends early/) });
    await expect(read(serializeR({ type: 'integer', values: [1, 2] }))).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringContaining('not a data.frame') });
    const list: RValue = { type: 'list', values: [{ type: 'double', values: [1] }], attrs: [['names', { type: 'character', values: ['a'] }]] };
    await expect(read(serializeR(list))).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringContaining('not data.frame') });
    await expect(read(new TextEncoder().encode('A\n3\n'))).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringContaining('ASCII') });
    await expect(read(new TextEncoder().encode('CELL5M,X\n'))).rejects.toMatchObject({ code: 'UNPARSABLE' });
  });

  it('refuses a vector longer than the global grid as soon as its length is read, before its data (issue 25 item 5)', async () => {
    // X\n, version 3, writer, reader, "UTF-8"; a list (VECSXP with attributes) of 2 columns;
    // a double column (REALSXP) declaring 150,000,000 values, then zeros for ever.
    const head = new DataView(new ArrayBuffer(2 + 4 * 4 + 5 + 4 * 4));
    let o = 0;
    head.setUint8(o++, 0x58); head.setUint8(o++, 0x0a);
    for (const v of [3, 0x040300, 0x030500, 5]) { head.setInt32(o, v); o += 4; }
    for (const c of 'UTF-8') head.setUint8(o++, c.charCodeAt(0));
    for (const v of [19 | 512, 2, 14, 150_000_000]) { head.setInt32(o, v); o += 4; }
    let pulled = 0;
    async function* bomb(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(head.buffer);
      for (;;) {
        pulled += 1 << 20;
        yield new Uint8Array(1 << 20);
      }
    }
    await expect(readRdsTable(bomb(), { what: 'bomb.rds', onColumn: () => undefined })).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringMatching(/bomb\.rds.*150000000 items.*9331200 cells/) });
    expect(pulled).toBe(0);
    // the bound is an option (the 4-column list is over a bound of 3)
    await expect(readRdsTable(pieces(serializeR(DF), 7), { what: 'f.rds', maxLength: 3, onColumn: () => undefined })).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringContaining('4 items') });
  });

  it('refuses a text column past its byte bound as it is read, before the rest of the stream (a huge free-text column within the row limit)', async () => {
    const long = 'x'.repeat(1000);
    const big: RValue = {
      type: 'list',
      values: [{ type: 'double', values: Array.from({ length: 2000 }, (_, k) => k) }, { type: 'character', values: Array.from({ length: 2000 }, (_, k) => long + k) }],
      attrs: [
        ['names', { type: 'character', values: ['CELL5M', 'notes'] }],
        ['class', { type: 'character', values: ['data.frame'] }],
        ['row.names', { type: 'integer', values: [null, -2000] }],
      ],
    };
    const bytes = serializeR(big);
    let pulled = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < bytes.length; i += 4096) {
        pulled += 4096;
        yield bytes.slice(i, i + 4096);
      }
    }
    await expect(readRdsTable(counted(), { what: 'notes.rds', maxColumnTextBytes: 100_000, onColumn: () => undefined })).rejects.toMatchObject({
      code: 'UNPARSABLE',
      message: expect.stringMatching(/notes\.rds.*a text column holds more than 0 MB of text \(100 of its 2000 values read.*drop long free-text columns/),
    });
    expect(pulled).toBeLessThan(bytes.length / 10);
    // within the bound it is read whole
    const cols: RColumn[] = [];
    await readRdsTable(pieces(bytes, 1 << 16), { what: 'notes.rds', maxColumnTextBytes: 3_000_000, onColumn: (i, c) => void (cols[i] = c) });
    expect((cols[1] as { values: string[] }).values[1999]).toBe(long + 1999);
  });
});
