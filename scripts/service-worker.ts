/**
 * A Vite plugin that writes the console's service worker (src/offline/sw.js) as /sw.js of the build, with the list of
 * files it caches when it installs (the shell: index.html, every script and style of the build, the public files such
 * as the icons and the web manifest) and a version made of that list, so each build's worker replaces the last one's
 * cache. The worker is not part of any page's first load: the page registers it once loaded (src/main.tsx).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { API_PREFIXES } from '../server/paths';

const SOURCE = resolve(import.meta.dirname, '../src/offline/sw.js');
/** What the worker caches of the build: what a page can load, not the build's own records. */
const CACHED = /\.(?:js|css|html|svg|png|webmanifest|woff2?)$/;

export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'backoffice:service-worker',
    apply: 'build',
    // After Vite's own plugins have put the page (index.html) in the bundle.
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      const built = Object.keys(bundle).filter((file) => CACHED.test(file) && !file.startsWith('.'));
      const publicDir = config.publicDir;
      const publicFiles = publicDir ? readdirSync(publicDir).filter((file) => CACHED.test(file)) : [];
      const files = [...new Set(['index.html', ...built, ...publicFiles])].sort().map((file) => `/${file}`);
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      const source = readFileSync(SOURCE, 'utf8')
        .replace('self.__PRECACHE__', JSON.stringify(files))
        .replace('self.__VERSION__', JSON.stringify(version))
        .replace('self.__API_PREFIXES__', JSON.stringify(API_PREFIXES));
      if (source.includes('self.__')) this.error(`${SOURCE}: a placeholder was left unfilled`);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

/** The files the worker in `distDir` caches when it installs (for tests). */
export function precachedFiles(distDir: string): string[] {
  const source = readFileSync(join(distDir, 'sw.js'), 'utf8');
  return JSON.parse(/const PRECACHE = (\[.*?\]);/.exec(source)?.[1] ?? '[]') as string[];
}
