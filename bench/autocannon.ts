/**
 * autocannon as the HTTP load benches call it (bench/load.ts, bench/lists-load.ts): the package ships no types, so
 * the part they use is typed here once.
 */
import { createRequire } from 'node:module';

export interface AutocannonRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
  on(event: 'done', listener: (result: { requests: { total: number }; duration: number; non2xx: number; errors: number }) => void): void;
  stop(): void;
}

type Autocannon = (options: { url: string; connections: number; duration: number; requests?: AutocannonRequest[]; headers: Record<string, string> }) => AutocannonInstance;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
