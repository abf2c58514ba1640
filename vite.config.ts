import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Vite build of the single-page app. `base` is relative so the built `dist/` can be
 * hosted from any static path; the bundle under `public/data/` is copied as is.
 */
export default defineConfig({
  base: './',
  // DIST_DIR (default dist) lets several builds live side by side; the server reads the same variable.
  plugins: [react()],
  worker: { format: 'es' },
  build: { outDir: process.env.DIST_DIR || 'dist', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000 },
});
