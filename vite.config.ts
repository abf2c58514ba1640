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
        const engine = workerImports(ctx.bundle ?? {}, /(^|\/)engine\.worker-[^/]*\.js$/);
        if (engine.length) tags.push({ tag: 'script', attrs: { type: 'application/json', id: 'engine-preload' }, children: JSON.stringify(engine), injectTo: 'head' });
        return tags;
      },
    },
  };
}

/**
 * The chunks a worker script (the asset whose name matches `name`) imports statically, with
 * theirs, as `./assets/...` hrefs: a module worker fetches them only once its own script has
 * arrived and been parsed, one more round trip (0.3 s on 1.6 Mbps / 150 ms). The page preloads
 * them (`rel=preload as=fetch`) when it starts the engine worker (src/app/engine-client.ts), so
 * the worker's own requests are read from the HTTP cache (assets are immutable).
 */
export function workerImports(bundle: Record<string, { type: string; fileName: string; source?: string | Uint8Array; code?: string }>, name: RegExp): string[] {
  const byName = new Map(Object.values(bundle).map((o) => [o.fileName, o]));
  const text = (o: { source?: string | Uint8Array; code?: string } | undefined) => (o ? o.code ?? (typeof o.source === 'string' ? o.source : o.source ? new TextDecoder().decode(o.source) : '') : '');
  const root = Object.values(bundle).find((o) => name.test(o.fileName));
  if (!root) return [];
  const out: string[] = [];
  const visit = (fileName: string) => {
    const dir = fileName.slice(0, fileName.lastIndexOf('/') + 1);
    // static imports only (`import{..}from"./x.js"`, `import"./x.js"`), not `import("./x.js")`
    for (const m of text(byName.get(fileName)).matchAll(/(?:^|[;\n])\s*import\s*(?:[\w${}\s,*]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      const dep = dir + m[1];
      if (out.includes(`./${dep}`) || !byName.has(dep)) continue;
      out.push(`./${dep}`);
      visit(dep);
    }
  };
  visit(root.fileName);
  return out;
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
