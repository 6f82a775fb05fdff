import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

import { API_PREFIXES } from './server/paths';
import { areaIcons } from './scripts/area-icons';
import { screenChunks } from './scripts/chunks';
import { precompress } from './scripts/precompress';
import { serviceWorker } from './scripts/service-worker';
import { standIns } from './scripts/stand-ins';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
// The paths served by the reference server (one list, the server's): the Vite dev server forwards them.
const chunks = screenChunks();

export default defineConfig({
  // The build leaves out library code the console never runs (scripts/stand-ins.ts, each shim says why); each text
  // file of the build also as .br and .gz, which the server sends as they are; /sw.js caches the shell for offline use.
  plugins: [react(), areaIcons(), standIns(), chunks.plugin, serviceWorker(), precompress()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    // Browsers without <link rel="modulepreload"> (Safari before 17) still load everything, one file after another.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2000,
    // The shell's libraries, the shell, what screens share, each screen (scripts/chunks.ts).
    rolldownOptions: { output: { codeSplitting: chunks.codeSplitting } },
  },
});
