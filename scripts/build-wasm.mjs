// Builds src/core/cog/predictor3-wasm.ts (the module's bytes as base64) from
// src/core/cog/predictor3.wat with wabt (a devDependency). Usage: node scripts/build-wasm.mjs
// src/core/cog/simd.test.ts checks that the committed bytes are this build of the .wat.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const COG = join(dirname(fileURLToPath(import.meta.url)), '../src/core/cog');

/** The .wat compiled to wasm bytes (SIMD enabled). */
export async function buildPredictor3() {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('predictor3.wat', readFileSync(join(COG, 'predictor3.wat'), 'utf8'), { simd: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bytes = await buildPredictor3();
  writeFileSync(join(COG, 'predictor3-wasm.ts'), [
    '/** The bytes of ./predictor3.wat compiled by `node scripts/build-wasm.mjs` (wabt), base64. Generated: do not edit. */',
    `export const PREDICTOR3_WASM = '${Buffer.from(bytes).toString('base64')}';`,
    '',
  ].join('\n'));
  console.log(`predictor3-wasm.ts: ${bytes.length} bytes of wasm`);
}
