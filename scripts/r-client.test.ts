// The R package's generated files (clients/r/indapi3) are what the method registry gives now:
// after adding a method or an argument, `npm run r-client` rewrites them.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { METHODS } from '../src/contract/methods';
import { rClientFiles, rdText, rFormals, rFunction } from './r-client';

describe('R package generator', () => {
  test('the committed generated files equal the registry\'s (else run `npm run r-client`)', () => {
    const files = rClientFiles(METHODS);
    expect(files.size).toBe(METHODS.length + 2);
    for (const [path, text] of files) expect(readFileSync(path, 'utf8'), `${path} is stale: run npm run r-client`).toBe(text);
  });

  test('every method is exported by the package NAMESPACE', () => {
    const ns = readFileSync('clients/r/indapi3/NAMESPACE', 'utf8');
    const exported = [...ns.matchAll(/^export\(([^)]*)\)/gm)].flatMap((m) => m[1].split(',').map((s) => s.trim()));
    for (const m of METHODS) expect(exported).toContain(m.name);
  });

  test('formals carry the registry defaults as R shows them; required arguments have none', () => {
    const indapi = METHODS.find((m) => m.name === 'indapi')!;
    expect(rFormals(indapi.args)).toMatch(/^var, iso3 = "SSA", by = NULL, .*as\.list = FALSE.*dig\.lab = 3/);
    const f = rFunction(indapi);
    expect(f).toMatch(/^indapi <- function\(var, iso3 = "SSA"/);
    expect(f).toContain('force(var)');
    expect(f).toContain('.indapi3_call_method("indapi"');
  });

  test('Rd text escapes percent, backslash and braces, and turns code spans into \\code{}', () => {
    expect(rdText('50% of `list(a = 1)` {x} \\n')).toBe('50\\% of \\code{list(a = 1)} \\{x\\} \\\\n');
  });
});
