/**
 * Build of the service worker (`workers/sw.ts` -> `dist/sw.js`), run after the app build
 * (`npm run build` = `vite build && vite build --config vite.sw.config.ts`).
 *
 * - One classic script (IIFE, no imports), so it registers in every browser with
 *   `navigator.serviceWorker.register('./sw.js')`.
 * - `__PRECACHE__`: the app shell files needed to start and draw the first map, precached
 *   at install: `index.html`, its entry chunk and what that imports (Vite's
 *   `.vite/manifest.json`), the map chunk (`src/ui/MapView.tsx`) with MapLibre and its CSS,
 *   the engine and raster workers and MapLibre's worker. `__PRECACHE_LATER__`: the other
 *   files of the shell (lazy panels, writers, upload parsers, the files worker), cached in
 *   the background once the bundle's small files are stored. Never `resvg.wasm` and the font
 *   (2.5 MB, PNG graphics only): fetched on first use and cached then. Not the data bundle,
 *   not `config.json` (read network-first), not source maps, not the `.br`/`.gz` siblings.
 *   `__BUILD_ID__`: a hash of the shell files, naming the shell cache so a new build replaces
 *   the old one.
 * - sw.js, resvg.wasm and the font get `.br`/`.gz` siblings like the app's files.
 * - Copies `@resvg/resvg-wasm`'s wasm to `dist/resvg.wasm` and, when installed (Debian
 *   fonts-dejavu-core), DejaVu Sans to `dist/fonts/DejaVuSans.ttf`, for PNG graphics.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { PRECOMPRESS } from './vite.config';

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
    } else if (!/\.(map|br|gz)$/.test(name) && r !== 'sw.js' && r !== 'config.json') {
      out.push(r);
    }
  }
  return out.sort();
}

/** A chunk of Vite's build manifest (`build.manifest: true`). */
interface ManifestChunk { file: string; imports?: string[]; css?: string[] }

/**
 * The files the app needs to start and draw its first map: the entry (`index.html`) and the
 * map chunk with their static imports and CSS (Vite's manifest), and the workers the first
 * map uses (engine, raster, MapLibre's), found by name. Without a manifest: every file.
 */
function startFiles(shell: string[]): Set<string> {
  const mf = path.join(DIST, '.vite', 'manifest.json');
  if (!existsSync(mf)) return new Set(shell);
  const m = JSON.parse(readFileSync(mf, 'utf8')) as Record<string, ManifestChunk>;
  const out = new Set<string>(['index.html']);
  const visit = (key: string) => {
    const c = m[key];
    if (!c || out.has(c.file)) return;
    out.add(c.file);
    for (const css of c.css ?? []) out.add(css);
    for (const k of c.imports ?? []) visit(k);
  };
  visit('index.html');
  visit('src/ui/MapView.tsx');
  // the workers of the first map (their COG reader and its inflater are in the workers' own scripts)
  for (const f of shell) if (/^assets\/(engine\.worker|raster\.worker|maplibre-gl-worker)-/.test(f)) out.add(f);
  return out;
}

/** Writes brotli and gzip siblings of a file (as vite-plugin-compression2 does for the app's files). */
function precompress(file: string): void {
  const b = readFileSync(file);
  writeFileSync(file + '.br', brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(file + '.gz', gzipSync(b, { level: 9 }));
}

export default defineConfig(() => {
  const shell = walk(DIST).filter((f) => f !== 'resvg.wasm' && !f.startsWith('fonts/'));
  const start = startFiles(shell);
  const h = createHash('sha256');
  for (const f of shell) h.update(f).update(readFileSync(path.join(DIST, f)));
  const buildId = h.digest('hex').slice(0, 16);
  return {
    publicDir: false,
    // Asset URLs (the GeoPackage writer's sql.js wasm) resolved against the worker's own URL at
    // run time, so a deploy under a sub-path works as the app's does (`base` './' would make
    // Vite resolve them against `document`, which a service worker has not).
    experimental: {
      renderBuiltUrl: (filename: string) => ({ runtime: `new URL(${JSON.stringify(filename)}, self.location.href).href` }),
    },
    define: {
      __PRECACHE__: JSON.stringify(shell.filter((f) => start.has(f))),
      __PRECACHE_LATER__: JSON.stringify(shell.filter((f) => !start.has(f))),
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
      compression(PRECOMPRESS),
      {
        name: 'indapi3-sw-assets',
        closeBundle() {
          copyFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm'), path.join(DIST, 'resvg.wasm'));
          precompress(path.join(DIST, 'resvg.wasm'));
          if (existsSync(FONT)) {
            mkdirSync(path.join(DIST, 'fonts'), { recursive: true });
            copyFileSync(FONT, path.join(DIST, 'fonts', 'DejaVuSans.ttf'));
            precompress(path.join(DIST, 'fonts', 'DejaVuSans.ttf'));
          }
        },
      },
    ],
  };
});
