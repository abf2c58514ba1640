// The layering rules of eslint.config.js, checked on virtual files (nothing is written):
// each rule rejects the import or global it guards and lets the allowed one through.
import { describe, expect, test } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r.messages.map((m) => m.ruleId ?? m.message);
}

describe('layering lint', () => {
  test('a worker importing src/app is rejected; importing core is not', async () => {
    expect(await ruleIds(`import { x } from '../src/app/config';\nexport const y = x;\n`, 'workers/virtual.ts')).toContain('no-restricted-imports');
    expect(await ruleIds(`import { SSA_GRID } from '../src/core/grid';\n/** Doc. */\nexport const y = SSA_GRID;\n`, 'workers/virtual.ts')).toEqual([]);
  });

  test('the Node server importing src/app or a worker is rejected', async () => {
    expect(await ruleIds(`import { x } from '../app/config';\nexport const y = x;\n`, 'src/node/virtual.ts')).toContain('no-restricted-imports');
    expect(await ruleIds(`import { x } from '../../workers/sw-data';\nexport const y = x;\n`, 'src/node/virtual.ts')).toContain('no-restricted-imports');
  });

  test('the app may import worker message types but not a worker implementation', async () => {
    expect(await ruleIds(`import type { CellInfo } from '../../workers/protocol/raster';\n/** Doc. */\nexport type Y = CellInfo;\n`, 'src/app/virtual.ts')).toEqual([]);
    expect(await ruleIds(`import { CACHES } from '../../workers/sw-data';\nexport const y = CACHES;\n`, 'src/app/virtual.ts')).toContain('no-restricted-imports');
  });

  test('process, Buffer, window and document in src/core are rejected; web-standard APIs are not', async () => {
    for (const g of ['process.env.X', 'Buffer.from("a")', 'window.location', 'document.title']) {
      expect(await ruleIds(`/** Doc. */\nexport const y = ${g};\n`, 'src/core/virtual.ts'), g).toContain('no-restricted-globals');
    }
    const ok = `/** Doc. */\nexport const y = [new TextDecoder(), AbortSignal.abort(), new URL('http://a'), new DOMException('x'), setTimeout, console];\n`;
    expect(await ruleIds(ok, 'src/core/virtual.ts')).toEqual([]);
  });

  test('process outside src/core is allowed (the Node server reads PORT)', async () => {
    expect(await ruleIds(`/** Doc. */\nexport const y = process.env.PORT;\n`, 'src/node/virtual.ts')).toEqual([]);
  });
});
