import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The admin app: built into `dist/admin`, served by the service under `/admin` (hashed files under
 * `/admin/app/`, cached for a year; `index.html` for each screen's URL, never cached).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'app',
    reportCompressedSize: false,
    // The budget that matters is the first screen's gzipped size, which a test checks.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      // React libraries mark modules "use client" for server components; a plain SPA has none.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') {
          handler(level, log);
        }
      },
    },
  },
});
