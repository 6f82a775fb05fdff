/**
 * Answers compressed on the fly (@fastify/compress): brotli or gzip as the browser accepts, for text, JSON, JavaScript,
 * XML and SVG above a threshold. Files already compressed (the console's assets, precompressed at build and sent as
 * they are by @fastify/static), documents (PDF prints, attachments: PDF, JPEG, PNG), octet streams and event streams
 * pass untouched, as do the sign-in issuer's answers (written straight to the socket). Request bodies are read as
 * before (no request decompression).
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Smaller answers gain too little to be worth compressing (the saving would stay within one packet). */
export const COMPRESSION_THRESHOLD = 1024;

const COMPRESSIBLE = /^text\/(?!event-stream)|[/+]json(?:;|$)|javascript|[/+]xml(?:;|$)/;

export async function compression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
  });
}

/**
 * The encoding to send a precompressed file in, from a request's accept-encoding: brotli or gzip, whichever it
 * weighs more (brotli on a tie; `*` stands for either), none when it accepts neither.
 */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const weights = new Map<string, number>();
  for (const part of String(header ?? '').toLowerCase().split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).reduce<'br' | 'gzip' | undefined>((chosen, name) => (weight(name) > (chosen ? weight(chosen) : 0) ? name : chosen), undefined);
  return best;
}
