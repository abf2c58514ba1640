import { defineConfig } from 'vite';
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
 * Vite build of the single-page app. `base` is relative so the built `dist/` can be
 * hosted from any static path; the bundle under `public/data/` is copied as is.
 */
export default defineConfig({
  base: './',
  // DIST_DIR (default dist) lets several builds live side by side; the server reads the same variable.
  plugins: [react(), compression(PRECOMPRESS)],
  // jspdf's optional html2canvas/dompurify/canvg serve doc.html() and addSvgAsImage(), never called here.
  resolve: { alias: { html2canvas: unused, dompurify: unused, canvg: unused } },
  worker: { format: 'es' },
  // manifest: the chunk graph, from which vite.sw.config.ts tells the start files from the lazy ones
  build: { outDir: process.env.DIST_DIR || 'dist', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000, manifest: true },
});
