import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IndapiError } from '../core/errors';
import { errorAnswer, STATUS_BY_CODE, statusFor, statusOf } from './status';

/** The codes as src/core/errors.ts declares them, read from its source (not from the table). */
function declaredCodes(): string[] {
  const src = readFileSync(new URL('../core/errors.ts', import.meta.url), 'utf8');
  const union = /export type ErrorCode =([\s\S]*?);/.exec(src)![1];
  return [...union.matchAll(/\|\s*'([A-Z_0-9]+)'/g)].map((m) => m[1]);
}

/** Failures of the server, its runtime or its data host, never of the request: the only 5xx. */
const SERVER_SIDE = new Set(['IO', 'INTERNAL', 'OFFLINE', 'BAD_BUNDLE', 'BUNDLE_CHANGED']);

describe('status table', () => {
  it('gives every error code of src/core/errors.ts a status, and nothing else', () => {
    const codes = declaredCodes();
    expect(codes.length).toBeGreaterThan(15);
    expect(Object.keys(STATUS_BY_CODE).sort()).toEqual([...codes].sort());
  });

  it('maps no request error to 5xx: only failures of the server or its data host', () => {
    for (const code of declaredCodes()) {
      const s = statusFor(code);
      expect(s >= 400 && s < 600, code).toBe(true);
      expect(s >= 500, code).toBe(SERVER_SIDE.has(code));
    }
  });

  it('answers a thrown value through the table: IndapiError by code, anything else 500', async () => {
    expect(statusOf(new IndapiError('TOO_LARGE', 'x'))).toBe(413);
    expect(statusOf(new Error('bug'))).toBe(500);
    expect(statusFor('A_CODE_OF_A_NEWER_CORE')).toBe(500);
    const r = errorAnswer(new IndapiError('BAD_ARGUMENT', "invalid 'var'"), 'getLayer(var = 1)');
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await r.text()).toBe("invalid 'var'\n\nIn call:\ngetLayer(var = 1)\n");
    const i = errorAnswer(new TypeError('oops'));
    expect(i.status).toBe(500);
    expect(await i.text()).toBe('Internal error: oops\n');
  });
});
