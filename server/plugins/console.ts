/**
 * The built console (vite build's dist): its files, and its index.html for any page navigation no route answers.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { publicRoutes } from '../auth/guard';
import { acceptedEncoding } from '../compression';
import { messageLocale } from '../messages';
import { isApiPath } from '../paths';
import { refusalBody } from './refusals';

export async function builtConsole(app: FastifyInstance, { distDir }: { distDir?: string }) {
  // The built console: its files as they are (public), hashed assets cached for good, index.html never cached; each as
  // the .br or .gz written beside it at build when the browser accepts it (scripts/precompress.ts).
  const dist = resolve(distDir ?? join(process.cwd(), 'dist'));
  const indexHtml = join(dist, 'index.html');
  if (existsSync(indexHtml)) {
    await app.register(async (scope) => {
      publicRoutes(scope);
      await scope.register(fastifyStatic, {
        root: dist,
        index: false,
        wildcard: false,
        // Our cache headers below, not the plugin's max-age=0.
        cacheControl: false,
        preCompressed: true,
        setHeaders: (res, path) => {
          res.setHeader('cache-control', path.startsWith(join(dist, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
          // The same address answers br, gzip or plain bytes by the request's accept-encoding: caches must key on it.
          res.setHeader('vary', 'accept-encoding');
        },
      });
    });
  }

  // Android's share sheet posts shared files here (the web manifest's share_target). The console's service worker takes
  // them (src/offline/sw.js) before they reach the network; a browser without it (first visit, worker not yet
  // installed) lands here: the files are not kept (the worker keeps them on the phone, none is stored on the server
  // unasked), and the Move page opens, where the document can be chosen.
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
      payload.on('error', done);
      payload.on('end', () => done(null, undefined));
      payload.resume();
    });
    scope.post('/share-target', { schema: { hide: true }, config: { public: true } }, async (_request, reply) => reply.redirect('/move?shared=1', 303));
  });

  // Unmatched: the console's index.html for a page navigation (a GET of a path that is not a file nor under an API
  // prefix, accepting HTML), otherwise a JSON 404.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    const isFile = path.slice(path.lastIndexOf('/') + 1).includes('.');
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if ((request.method === 'GET' || request.method === 'HEAD') && !isApiPath(path) && !isFile && wantsHtml && existsSync(indexHtml)) {
      // As the .br or .gz written beside it at build when the browser accepts one (@fastify/compress skips this handler).
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      const compressed = encoding && `${indexHtml}.${encoding === 'br' ? 'br' : 'gz'}`;
      if (compressed && existsSync(compressed)) reply.header('content-encoding', encoding);
      reply.header('vary', 'accept-encoding');
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(await readFile(reply.hasHeader('content-encoding') ? compressed! : indexHtml));
    }
    return reply.code(404).send(refusalBody(404, messageLocale(request.headers['accept-language']), { key: 'request.routeNotFound', params: { method: request.method, path } }));
  });
}
