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
 * `<link rel="modulepreload">` in index.html for the map's lazy chunk (`src/ui/MapView.tsx`)
 * and the chunks it imports statically (MapLibre), so the first map's code downloads beside
 * the entry script instead of after it has run: on a 150 ms RTT connection the entry (about
 * 116 KB brotli) took a second before `import('../ui/MapView')` in main.tsx could start.
 * MapLibre's worker script is preloaded too (`rel=preload as=fetch`: the worker's own
 * request then comes from the HTTP cache). The other panels stay lazy. The links carry `data-first-map` (the app shell's budget in
 * e2e/budget.e2e.test.ts counts the entry and its static imports, not these).
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
        const tags: HtmlTagDescriptor[] = files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}`, 'data-first-map': true }, injectTo: 'head' as const }));
        // MapLibre's worker script: fetched into the HTTP cache (assets are immutable) beside
        // the entry, so `new Worker()` finds it there instead of starting its own download
        // once MapLibre has loaded and run (it was the last serial step before the first map).
        const worker = Object.keys(ctx.bundle ?? {}).find((f) => /(^|\/)maplibre-gl-worker-[^/]*\.mjs$/.test(f));
        if (worker) tags.push({ tag: 'link', attrs: { rel: 'preload', as: 'fetch', crossorigin: true, href: `./${worker}`, 'data-first-map': true }, injectTo: 'head' });
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
