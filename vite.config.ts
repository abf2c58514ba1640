import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const unused = fileURLToPath(new URL('./src/app/jspdf-unused.ts', import.meta.url));

/**
 * Vite build of the single-page app. `base` is relative so the built `dist/` can be
 * hosted from any static path; the bundle under `public/data/` is copied as is.
 */
export default defineConfig({
  base: './',
  // DIST_DIR (default dist) lets several builds live side by side; the server reads the same variable.
  plugins: [react()],
  // jspdf's optional html2canvas/dompurify/canvg serve doc.html() and addSvgAsImage(), never called here.
  resolve: { alias: { html2canvas: unused, dompurify: unused, canvg: unused } },
  worker: { format: 'es' },
  build: { outDir: process.env.DIST_DIR || 'dist', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000 },
});
