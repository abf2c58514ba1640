/**
 * Build of the service worker (`workers/sw.ts` -> `dist/sw.js`), run after the app build
 * (`npm run build` = `vite build && vite build --config vite.sw.config.ts`).
 *
 * - One classic script (IIFE, no imports), so it registers in every browser with
 *   `navigator.serviceWorker.register('./sw.js')`.
 * - `__PRECACHE__`: the app shell files found in `dist/` after the app build (not the data
 *   bundle, not `config.json` which is read network-first, not source maps), precached at install; `__BUILD_ID__`: a hash of them, naming
 *   the shell cache so a new build replaces the old one.
 * - Copies `@resvg/resvg-wasm`'s wasm to `dist/resvg.wasm` and, when installed (Debian
 *   fonts-dejavu-core), DejaVu Sans to `dist/fonts/DejaVuSans.ttf`, for PNG graphics.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';

const DIST = path.resolve(process.env.DIST_DIR || 'dist');
const require = createRequire(import.meta.url);
/** DejaVu Sans for PNG graphics: npm `dejavu-fonts-ttf` (a dependency), else Debian's fonts-dejavu-core. */
const FONT = (() => {
  try {
    const f = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf');
    if (existsSync(f)) return f;
  } catch { /* fall back */ }
  return '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
})();

function walk(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const r = rel ? `${rel}/${name}` : name;
    const abs = path.join(dir, name);
    if (statSync(abs).isDirectory()) {
      if (r === 'data' || r === '.vite') continue;
      out.push(...walk(abs, r));
    } else if (!name.endsWith('.map') && r !== 'sw.js' && r !== 'config.json') {
      out.push(r);
    }
  }
  return out.sort();
}

export default defineConfig(() => {
  const shell = walk(DIST).filter((f) => f !== 'resvg.wasm' && !f.startsWith('fonts/'));
  const extra = ['resvg.wasm', ...(existsSync(FONT) ? ['fonts/DejaVuSans.ttf'] : [])];
  const h = createHash('sha256');
  for (const f of shell) h.update(f).update(readFileSync(path.join(DIST, f)));
  const buildId = h.digest('hex').slice(0, 16);
  return {
    publicDir: false,
    define: {
      __PRECACHE__: JSON.stringify([...shell, ...extra]),
      __BUILD_ID__: JSON.stringify(buildId),
      // workbox modules keep dev-only asserts and logs behind this test.
      'process.env.NODE_ENV': JSON.stringify('production'),
      // Vite's dynamic-import preload helper mentions import.meta, which a classic script lacks.
      'import.meta.url': 'self.location.href',
      'import.meta.resolve': 'undefined',
    },
    build: {
      outDir: DIST,
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2022',
      sourcemap: false,
      minify: true,
      modulePreload: false,
      // One self-contained script: engine, writers, zip, router (about 1.2 MB minified).
      chunkSizeWarningLimit: 2000,
      rollupOptions: {
        input: path.resolve('workers/sw.ts'),
        output: { format: 'iife' as const, entryFileNames: 'sw.js', inlineDynamicImports: true },
      },
    },
    plugins: [
      {
        name: 'indapi3-sw-assets',
        closeBundle() {
          copyFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm'), path.join(DIST, 'resvg.wasm'));
          if (existsSync(FONT)) {
            mkdirSync(path.join(DIST, 'fonts'), { recursive: true });
            copyFileSync(FONT, path.join(DIST, 'fonts', 'DejaVuSans.ttf'));
          }
        },
      },
    ],
  };
});
