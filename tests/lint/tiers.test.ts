// The unit tier (vitest.config.ts) runs without R, GDAL, Python or curl: no unit test file
// starts one of them. A test that needs a real reader is named *.interop.test.ts or lives in
// tests/interop/ (vitest.interop.config.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const EXTERNAL = /\b(?:execFile|execFileSync|spawn|spawnSync|exec|execSync)\(\s*['"`](?:[^'"`]*\/)?(Rscript|R|python3?|gdal\w*|ogr\w*|curl|bash|pdftotext|pdfinfo)['"`]/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('test tiers', () => {
  const unit = ['src', 'workers', 'tests', 'scripts']
    .flatMap(testFiles)
    .filter((f) => !f.endsWith('.interop.test.ts') && !f.startsWith(join('tests', 'interop')));

  test('the unit tier has test files', () => expect(unit.length).toBeGreaterThan(40));

  test('no unit test file starts R, GDAL, Python or curl', () => {
    const offenders = unit.filter((f) => !f.endsWith('tiers.test.ts') && EXTERNAL.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  test('the pattern catches a call to an external reader', () => {
    expect(EXTERNAL.test(`execFileSync('/usr/bin/python3', ['-c', s])`)).toBe(true);
    expect(EXTERNAL.test(`execFileSync('Rscript', [f])`)).toBe(true);
    expect(EXTERNAL.test(`spawnSync('gdal_translate', a)`)).toBe(true);
  });
});
