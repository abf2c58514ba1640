import { describe, expect, test } from 'vitest';
import { BodyError } from './args';
import { parseMultipartBody, parseRdsBody, rdsToRValue } from './rds-body';
import { parseRLiteral } from './rliteral';
import type { RdsValue } from '../core/formats/rds-value';

const LIMITS = { maxBytes: 1_000_000, maxDepth: 64 };
const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));
/** serialize(list(var = "ELEVATION", iso3 = factor("KEN"), by = list(ELEVATION = c(0, 500, 1500))), NULL) in R 4. */
const GETLAYER =
  'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAwAAABAAAAABAAQACQAAAAlFTEVWQVRJT04AAAMNAAAAAQAAAAEAAAQCAAAAAQAEAAkAAAAGbGV2ZWxzAAAAEAAAAAEABAAJAAAAA0tFTgAABAIAAAABAAQACQAAAAVjbGFzcwAAABAAAAABAAQACQAAAAZmYWN0b3IAAAD+AAACEwAAAAEAAAAOAAAAAwAAAAAAAAAAQH9AAAAAAABAl3AAAAAAAAAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAABAAQACQAAAAlFTEVWQVRJT04AAAD+AAAEAgAAA/8AAAAQAAAAAwAEAAkAAAADdmFyAAQACQAAAARpc28zAAQACQAAAAJieQAAAP4=';
/** serialize(list(ELEVATION = c(0, 500, 1500)), NULL) in R 4. */
const BY = 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAAAA4AAAADAAAAAAAAAABAf0AAAAAAAECXcAAAAAAAAAAEAgAAAAEABAAJAAAABW5hbWVzAAAAEAAAAAEABAAJAAAACUVMRVZBVElPTgAAAP4=';

describe('rdsToRValue gives what the R literal of the same value gives', () => {
  const cases: Array<[string, RdsValue]> = [
    ['"KEN"', { type: 'character', values: ['KEN'] }],
    ['c("KEN", "UGA")', { type: 'character', values: ['KEN', 'UGA'] }],
    ['list(ELEVATION = c(0, 500, 1500))', { type: 'list', names: ['ELEVATION'], values: [{ type: 'double', values: [0, 500, 1500] }] }],
    ['c(a = 1, b = NA)', { type: 'double', names: ['a', 'b'], values: [1, null] }],
    ['list(a = 1, 2)', { type: 'list', names: ['a', ''], values: [{ type: 'double', values: [1] }, { type: 'double', values: [2] }] }],
    ['list(1, "a")', { type: 'list', values: [{ type: 'double', values: [1] }, { type: 'character', values: ['a'] }] }],
    ['c(TRUE, NA)', { type: 'logical', values: [true, null] }],
    ['c(NaN, Inf, 2)', { type: 'double', values: [NaN, Infinity, 2] }],
    ['list(a = NULL)', { type: 'list', names: ['a'], values: [{ type: 'NULL' }] }],
    ['c("b", "a")', { type: 'factor', values: ['b', 'a'], levels: ['a', 'b'] }],
  ];
  for (const [lit, v] of cases) test(lit, () => expect(rdsToRValue(v)).toEqual(parseRLiteral(lit)));
});

describe('parseRdsBody', () => {
  test('a named list from R: arguments in order, a factor as its texts', () => {
    expect(parseRdsBody(b64(GETLAYER), LIMITS)).toEqual([
      ['var', 'ELEVATION'],
      ['iso3', 'KEN'],
      ['by', { ELEVATION: [0, 500, 1500] }],
    ]);
  });
  test('a lone NA stays an NA vector (not NULL, which would mean the default); an empty body has no arguments', () => {
    // serialize(list(iso3 = NA), NULL)
    const na = b64('WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAAAAoAAAABgAAAAAAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAABAAQACQAAAARpc28zAAAA/g==');
    expect(parseRdsBody(na, LIMITS)).toEqual([['iso3', [null]]]);
    expect(parseRdsBody(new Uint8Array(0), LIMITS)).toEqual([]);
  });
  const fails = (bytes: Uint8Array): BodyError => {
    try {
      parseRdsBody(bytes, LIMITS);
    } catch (x) {
      return x as BodyError;
    }
    throw new Error('did not throw');
  };
  test('a cut body, and a body that is not a named list: 400 saying so', () => {
    const cut = fails(b64(BY).subarray(0, 40));
    expect(cut).toBeInstanceOf(BodyError);
    expect(cut.status).toBe(400);
    expect(cut.message).toBe('Cannot read the application/rds body: args[[1]] declares 3 elements, more than the 1 bytes left in the body hold.');
    // serialize(c(1, 2), NULL)
    expect(fails(b64('WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAAOAAAAAj/wAAAAAAAAQAAAAAAAAAA=')).message).toMatch(/must be a named list of the function arguments.*\(got a double vector\)/);
  });
});

describe('parseMultipartBody', () => {
  const boundary = 'XyZ';
  const body = (parts: Array<[string, Buffer]>) =>
    new Uint8Array(Buffer.concat([...parts.map(([h, b]) => Buffer.concat([Buffer.from(`--${boundary}\r\n${h}\r\n\r\n`), b, Buffer.from('\r\n')])), Buffer.from(`--${boundary}--\r\n`)]));
  test('text fields are R literals (percent-escaped as OpenCPU\'s client sends them, or not); application/rds parts are R objects', () => {
    const b = body([
      ['Content-Disposition: form-data; name="var"', Buffer.from('%22ELEVATION%22')],
      ['Content-Disposition: form-data; name="iso3"', Buffer.from('c("KEN", "UGA")')],
      ['Content-Disposition: form-data; name="by"\r\nContent-Type: application/rds', Buffer.from(b64(BY))],
    ]);
    expect(parseMultipartBody(`multipart/form-data; boundary=${boundary}`, b, LIMITS)).toEqual([
      ['var', 'ELEVATION'],
      ['iso3', ['KEN', 'UGA']],
      ['by', { ELEVATION: [0, 500, 1500] }],
    ]);
  });
  test('a file upload and a bad R object are 400 naming the field', () => {
    const file = body([['Content-Disposition: form-data; name="wkt"; filename="a.txt"', Buffer.from('x')]]);
    expect(() => parseMultipartBody(`multipart/form-data; boundary=${boundary}`, file, LIMITS)).toThrow("File uploads are not supported (field 'wkt')");
    const bad = body([['Content-Disposition: form-data; name="by"\r\nContent-Type: application/rds', Buffer.from('X\n\0\0\0\x03')]]);
    expect(() => parseMultipartBody(`multipart/form-data; boundary=${boundary}`, bad, LIMITS)).toThrow("Cannot read the application/rds field 'by'");
  });
});
