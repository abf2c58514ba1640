import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const unused = fileURLToPath(new URL('./src/app/jspdf-unused.ts', import.meta.url));

/**
 * Text files of the build (and of the bundle copied from public/, except the COGs) get
 * brotli (`.br`, quality 11) and gzip (`.gz`, level 9) siblings, made once here so the
 * server sends them without compressing per request (src/node/static.ts).
 */
export const PRECOMPRESS = {
  include: /\.(html|js|mjs|css|json|geojson|csv|md|txt|svg|wasm|ttf)$/,
  exclude: [/\.map$/, /config\.json$/],
  threshold: 1024,
  algorithms: [
    defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    defineAlgorithm('gzip', { level: 9 }),
  ],
  logLevel: 'silent' as const,
};

/**
 * The list of the map's lazy chunk (`src/ui/MapView.tsx`), the chunks it imports statically
 * (MapLibre) and MapLibre's worker script, in index.html as
 * `<script type="application/json" id="first-map-preload">` (`[{ rel, href }]`). The page
 * turns it into `<link rel="modulepreload">` (the worker: `rel=preload as=fetch`, so the
 * worker's own request comes from the HTTP cache) once the first view's preview is drawn
 * (`releaseLiveMap` in src/ui/first-map.ts), so the 0.4 MB download together, after the
 * preview's few bytes rather than sharing a slow link with them (issue 26 target 4; before,
 * they were links in the HTML, downloading beside the entry script from the start). The other
 * panels stay lazy. The app shell's budget in e2e/budget.e2e.test.ts counts the entry and its
 * static imports, not these.
 */
export function preloadMapChunks(): Plugin {
  return {
    name: 'indapi3-preload-map',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const map = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith('/src/ui/MapView.tsx'));
        if (!map) return html;
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const files: string[] = [];
        const visit = (name: string) => {
          if (files.includes(name) || html.includes(`/${name}"`)) return;
          files.push(name);
          for (const dep of byName.get(name)?.imports ?? []) visit(dep);
        };
        visit(map.fileName);
        const list: Array<{ rel: string; href: string }> = files.map((f) => ({ rel: 'modulepreload', href: `./${f}` }));
        const worker = Object.keys(ctx.bundle ?? {}).find((f) => /(^|\/)maplibre-gl-worker-[^/]*\.mjs$/.test(f));
        if (worker) list.push({ rel: 'preload', href: `./${worker}` });
        const tags: HtmlTagDescriptor[] = [{ tag: 'script', attrs: { type: 'application/json', id: 'first-map-preload' }, children: JSON.stringify(list), injectTo: 'head' }];
        return tags;
      },
    },
  };
}

/**
 * Vite build of the single-page app. `base` is relative so the built `dist/` can be
 * hosted from any static path; the bundle under `public/data/` is copied as is.
 */
export default defineConfig({
  base: './',
  // DIST_DIR (default dist) lets several builds live side by side; the server reads the same variable.
  plugins: [react(), preloadMapChunks(), compression(PRECOMPRESS)],
  // jspdf's optional html2canvas/dompurify/canvg serve doc.html() and addSvgAsImage(), never called here.
  resolve: { alias: { html2canvas: unused, dompurify: unused, canvg: unused } },
  worker: { format: 'es' },
  // manifest: the chunk graph, from which vite.sw.config.ts tells the start files from the lazy ones
  build: { outDir: process.env.DIST_DIR || 'dist', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000, manifest: true },
});
