import { gzipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { gunzipBounded, readRdsValue, type RdsValue } from './rds-value';

const LIMITS = { maxDepth: 64, maxElements: 1_000_000 };
const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));
const read = (bytes: Uint8Array, limits = LIMITS): RdsValue => readRdsValue(gunzipBounded(bytes, 10_000_000), limits);
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('did not throw');
};

/*
 * Written by R 4.2 (Debian r-base-core):
 *   x <- list(a = c(x = 1.5, y = NA), s = c("é", NA), l = c(TRUE, NA), n = 1:3,
 *             f = factor(c("b", "a", NA)), nan = NaN, nested = list(list(1L)), nul = NULL,
 *             d = as.character(c(0.1, 2)))
 *   serialize(x, NULL)                        # V3: `n` is ALTREP compact_intseq, `d` deferred_string
 *   saveRDS(x, f, version = 2)                # GZ2: gzip, format version 2
 *   serialize(x, NULL, xdr = FALSE)           # LE: native little-endian, "B\n"
 */
const V3 =
  'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAACQAAAg4AAAACP/gAAAAAAAB/8AAAAAAHogAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAACAAQACQAAAAF4AAQACQAAAAF5AAAA/gAAABAAAAACAACACQAAAALDqQAAAAn/////AAAACgAAAAIAAAABgAAAAAAAAO4AAAACAAAAAQAEAAkAAAAOY29tcGFjdF9pbnRzZXEAAAACAAAAAQAEAAkAAAAEYmFzZQAAAAIAAAANAAAAAQAAAA0AAAD+AAAADgAAAANACAAAAAAAAD/wAAAAAAAAP/AAAAAAAAAAAAD+AAADDQAAAAMAAAACAAAAAYAAAAAAAAQCAAAAAQAEAAkAAAAGbGV2ZWxzAAAAEAAAAAIABAAJAAAAAWEABAAJAAAAAWIAAAQCAAAAAQAEAAkAAAAFY2xhc3MAAAAQAAAAAQAEAAkAAAAGZmFjdG9yAAAA/gAAAA4AAAABf/gAAAAAAAAAAAATAAAAAQAAABMAAAABAAAADQAAAAEAAAABAAAA/gAAAO4AAAACAAAAAQAEAAkAAAAPZGVmZXJyZWRfc3RyaW5nAAAAAgAAA/8AAAACAAAADQAAAAEAAAAQAAAA/gAAAAIAAAAOAAAAAj+5mZmZmZmaQAAAAAAAAAAAAAANAAAAAQAAAAAAAAD+AAAEAgAAAf8AAAAQAAAACQAEAAkAAAABYQAEAAkAAAABcwAEAAkAAAABbAAEAAkAAAABbgAEAAkAAAABZgAEAAkAAAADbmFuAAQACQAAAAZuZXN0ZWQABAAJAAAAA251bAAEAAkAAAABZAAAAP4=';
const GZ2 =
  'H4sIAAAAAAAAA2VPQQ6CMBDcFsRggjHhH0b9gN/wWqGcak0sGj3BW7z5Dj/k0ZO4pd1GZJPuTrfTndndDAA4xJwDjyzMMaVY5/ayfUMfzcvm6R2QiIBBbDkw0eIgDYKFG9I32ZXADdMnvEJrm/z5sAIdBlYnjtTW6WR4ol7A9RFH1PvhDUwkSl6kGrkQBPb/pgslDNHDkEoU9fHkDdvdWeN3x8i9JaqZr2ywoJsUrZZrkt44adZ5TjoyZwgoAppARQO1oF6ipallGR7O4VdpnXwBkTsZoMwBAAA=';
const LE =
  'QgoDAAAAAgIEAAAFAwAFAAAAVVRGLTgTAgAACQAAAA4CAAACAAAAAAAAAAAA+D+iBwAAAADwfwIEAAABAAAACQAEAAUAAABuYW1lcxAAAAACAAAACQAEAAEAAAB4CQAEAAEAAAB5/gAAABAAAAACAAAACYAAAAIAAADDqQkAAAD/////CgAAAAIAAAABAAAAAAAAgO4AAAACAAAAAQAAAAkABAAOAAAAY29tcGFjdF9pbnRzZXECAAAAAQAAAAkABAAEAAAAYmFzZQIAAAANAAAAAQAAAA0AAAD+AAAADgAAAAMAAAAAAAAAAAAIQAAAAAAAAPA/AAAAAAAA8D/+AAAADQMAAAMAAAACAAAAAQAAAAAAAIACBAAAAQAAAAkABAAGAAAAbGV2ZWxzEAAAAAIAAAAJAAQAAQAAAGEJAAQAAQAAAGICBAAAAQAAAAkABAAFAAAAY2xhc3MQAAAAAQAAAAkABAAGAAAAZmFjdG9y/gAAAA4AAAABAAAAAAAAAAAA+H8TAAAAAQAAABMAAAABAAAADQAAAAEAAAABAAAA/gAAAO4AAAACAAAAAQAAAAkABAAPAAAAZGVmZXJyZWRfc3RyaW5nAgAAAP8DAAACAAAADQAAAAEAAAAQAAAA/gAAAAIAAAAOAAAAAgAAAJqZmZmZmbk/AAAAAAAAAEANAAAAAQAAAAAAAAD+AAAAAgQAAP8BAAAQAAAACQAAAAkABAABAAAAYQkABAABAAAAcwkABAABAAAAbAkABAABAAAAbgkABAABAAAAZgkABAADAAAAbmFuCQAEAAYAAABuZXN0ZWQJAAQAAwAAAG51bAkABAABAAAAZP4AAAA=';
/** serialize(list(ids = 1:1e8), NULL): 100 million integers in 185 bytes (compact_intseq). */
const SEQ_1E8 =
  'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAAAO4AAAACAAAAAQAEAAkAAAAOY29tcGFjdF9pbnRzZXEAAAACAAAAAQAEAAkAAAAEYmFzZQAAAAIAAAANAAAAAQAAAA0AAAD+AAAADgAAAANBl9eEAAAAAD/wAAAAAAAAP/AAAAAAAAAAAAD+AAAEAgAAAAEABAAJAAAABW5hbWVzAAAAEAAAAAEABAAJAAAAA2lkcwAAAP4=';

const EXPECTED: RdsValue = {
  type: 'list',
  names: ['a', 's', 'l', 'n', 'f', 'nan', 'nested', 'nul', 'd'],
  values: [
    { type: 'double', values: [1.5, null], names: ['x', 'y'] },
    { type: 'character', values: ['é', null] },
    { type: 'logical', values: [true, null] },
    { type: 'integer', values: [1, 2, 3] },
    { type: 'factor', values: ['b', 'a', null], levels: ['a', 'b'] },
    { type: 'double', values: [NaN] },
    { type: 'list', values: [{ type: 'list', values: [{ type: 'integer', values: [1] }] }] },
    { type: 'NULL' },
    { type: 'character', values: ['0.1', '2'] },
  ],
};

/** XDR bytes of a version-3 stream: header, then the given int32 words. */
function xdr(...words: number[]): Uint8Array {
  const head = [0x58, 0x0a, 0, 0, 0, 3, 0, 4, 2, 2, 0, 3, 5, 0, 0, 0, 0, 5, ...Buffer.from('UTF-8')];
  const out = new Uint8Array(head.length + 4 * words.length);
  out.set(head);
  const v = new DataView(out.buffer);
  words.forEach((w, i) => v.setInt32(head.length + 4 * i, w));
  return out;
}

describe('readRdsValue on bytes R wrote', () => {
  test('format 3 (XDR), format 2 gzip-compressed and native little-endian read the same: names, NA, NaN, factor, ALTREP, nesting, NULL', () => {
    expect(read(b64(V3))).toEqual(EXPECTED);
    expect(read(b64(GZ2))).toEqual(EXPECTED);
    expect(read(b64(LE))).toEqual(EXPECTED);
  });

  test('a compact sequence of 1e8 integers (185 bytes) is refused by the element limit before it is expanded', () => {
    expect(message(() => read(b64(SEQ_1E8)))).toMatch(/past 1000000 elements in all, the limit/);
  });
});

describe('refused objects and bombs', () => {
  test('an environment, a closure, a call, a symbol: named, with where they are', () => {
    // list(<type 4>): an environment as element 1
    expect(message(() => read(xdr(0x13, 1, 4, 0)))).toBe('x[[1]] is an environment; send data only: character, numeric, integer, logical or factor vectors and lists of them');
    expect(message(() => read(xdr(0x13, 1, 0x13, 1, 3)))).toMatch(/^x\[\[1\]\]\[\[1\]\] is a function \(closure\)/);
    expect(message(() => read(xdr(6)))).toMatch(/^x is a language object/);
    expect(message(() => read(xdr(1)))).toMatch(/^x is a symbol/);
    expect(message(() => read(xdr(253)))).toMatch(/globalenv/);
  });

  test('declared lengths beyond the bytes left fail before any allocation', () => {
    expect(message(() => read(xdr(0x13, 0x40000000)))).toMatch(/declares 1073741824 elements, more than the 0 bytes left/);
    expect(message(() => read(xdr(0x10, 2_000_000, 9, 1)))).toMatch(/declares 2000000 elements/);
    expect(message(() => read(xdr(0x0e, -1, 1, 0)))).toMatch(/long vector/);
    expect(message(() => read(xdr(0x10, 1, 9, 1_000_000)))).toMatch(/ends early/);
  });

  test('lists nested past the depth limit are refused', () => {
    const deep = xdr(...Array.from({ length: 70 }, () => [0x13, 1]).flat(), 254);
    expect(message(() => read(deep))).toBe('lists nest more than 64 levels deep in x, the limit');
    expect(read(xdr(0x13, 1, 0x13, 1, 254), { ...LIMITS, maxDepth: 2 })).toEqual({ type: 'list', values: [{ type: 'list', values: [{ type: 'NULL' }] }] });
  });

  test('a gzip bomb stops at the decompressed limit; bzip2, xz, ASCII and other versions are refused by name', () => {
    const bomb = gzipSync(new Uint8Array(2_000_000));
    expect(bomb.length).toBeLessThan(10_000);
    expect(message(() => gunzipBounded(bomb, 500_000))).toMatch(/decompresses to more than 500000 bytes/);
    expect(message(() => gunzipBounded(Buffer.from('BZh91AY'), 1e6))).toMatch(/bzip2/);
    expect(message(() => readRdsValue(Buffer.from('A\n3\n'), LIMITS))).toMatch(/ASCII/);
    expect(message(() => readRdsValue(Buffer.from('{"a": 1}'), LIMITS))).toMatch(/not R serialization/);
    const v4 = xdr(254);
    v4[5] = 4;
    expect(message(() => readRdsValue(v4, LIMITS))).toMatch(/version 4/);
    expect(message(() => readRdsValue(new Uint8Array([...xdr(254), 0]), LIMITS))).toMatch(/1 bytes follow/);
  });

  test('attributes other than names, class factor and levels are refused by name', () => {
    // a REALSXP with attribute dim: the words after the header are built with the tag as a CHARSXP
    const bytes = (tag: string, val: number[]) => {
      const t = Buffer.from(tag);
      const head = xdr(0x20e, 1, 0, 0, 0x402, 1, 0x40009, t.length);
      const tail = xdr(...val, 254).subarray(23);
      return new Uint8Array([...head, ...t, ...tail]);
    };
    expect(message(() => read(bytes('dim', [13, 1, 1])))).toMatch(/the attribute 'dim' \(a matrix or array\)/);
    const dateClass = bytes('class', [0x10, 1, 0x40009, 4, 0x44617465]);
    expect(message(() => read(dateClass))).toMatch(/class 'Date'/);
  });
});
