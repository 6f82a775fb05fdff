import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

import { API_PREFIXES } from './server/paths';
import { screenChunks } from './scripts/chunks';
import { precompress } from './scripts/precompress';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
// The paths served by the reference server (one list, the server's): the Vite dev server forwards them.
const chunks = screenChunks();
const shim = (file: string) => fileURLToPath(new URL(`./src/shims/${file}`, import.meta.url));

export default defineConfig(({ command }) => ({
  // Each text file of the build also as .br and .gz, which the server sends as they are.
  plugins: [react(), chunks.plugin, precompress()],
  // The build leaves out library code the console never runs (each shim says why).
  resolve:
    command === 'build'
      ? {
          alias: [
            { find: /^react-router-dom$/, replacement: shim('react-router-dom.ts') },
            { find: /^object\.entries$/, replacement: shim('object-entries.cjs') },
          ],
        }
      : {},
  server: {
    port: 5173,
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 2000,
    // The shell's libraries, the shell, what screens share, each screen (scripts/chunks.ts).
    rolldownOptions: { output: { codeSplitting: chunks.codeSplitting } },
  },
}));
