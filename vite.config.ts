import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

import { API_PREFIXES } from './server/paths';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
// The paths served by the reference server (one list, the server's): the Vite dev server forwards them.

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 2000,
  },
});
