/**
 * Node loader of the resvg rasterizer for tests: the wasm from node_modules and the
 * DejaVu Sans font from Debian's fonts-dejavu-core (installed by .ci/run).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createResvgRasterizer } from '../../src/core/formats/index';

const require = createRequire(import.meta.url);

/** DejaVu Sans path (Debian fonts-dejavu-core). */
export const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** A rasterizer for tests. */
export const nodeRasterizer = createResvgRasterizer({
  wasm: async () => readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')),
  fonts: async () => [new Uint8Array(await readFile(DEJAVU))],
});
