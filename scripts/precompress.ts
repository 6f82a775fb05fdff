/**
 * A Vite plugin that writes `<file>.br` and `<file>.gz` beside each text file of the build (scripts, styles, HTML,
 * SVG, JSON), at the highest levels (brotli 11, gzip 9) since it runs once per build, not per request. The server
 * sends them as they are (@fastify/static `preCompressed`). A compressed copy that is not smaller is not written.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Every file under a folder, skipping dot folders (Vite's .vite/manifest.json is for the build, not the browser). */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name.startsWith('.') ? [] : filesUnder(path);
      return [path];
    }),
  );
  return nested.flat();
}

/** Writes the .br and .gz copies of every compressible file in a folder; returns how many were written. */
export async function precompressFolder(folder: string): Promise<number> {
  let written = 0;
  for (const file of (await filesUnder(folder)).filter((path) => COMPRESSIBLE.test(path))) {
    const bytes = await readFile(file);
    const copies: [string, Buffer][] = [
      ['.br', await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })],
      ['.gz', await gzipped(bytes, { level: 9 })],
    ];
    for (const [extension, copy] of copies) {
      if (copy.length >= bytes.length) continue;
      await writeFile(file + extension, copy);
      written += 1;
    }
  }
  return written;
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'backoffice:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    // After every file (public/ included) is in the output folder.
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const written = await precompressFolder(outDir);
      config.logger.info(`precompressed: ${written} .br/.gz files in ${config.build.outDir}`);
    },
  };
}
