import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { MOCKING } from '../support/mocking';
import { filesUnder } from '../support/files-under';

/**
 * The shape DESIGN.md asks of the code, checked on every file: each server file has a layer, the server's layers
 * import only downwards, no server module or part imports itself through others, and no component of the console is
 * longer than a person can hold in their head.
 */
const root = resolve(import.meta.dirname, '../..');

/** The file a relative specifier names: itself, with an extension, or its folder's index. */
function moduleFile(path: string): string {
  const found = ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'].map((end) => `${path}${end}`).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return relative(root, found ?? path);
}

/** Every module a file imports (static, type-only, re-exported or dynamic), as file paths relative to the project. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => moduleFile(resolve(dirname(file), s)));
}

/**
 * The server's layers, lowest first: a module may import its own layer and the ones below, never one above. A folder
 * (ending in /) holds its files; a top-level file is named by its path. Every server file belongs to one.
 */
const LAYERS: Array<[string, number]> = [
  // The ground every layer stands on, importing none of them: configuration, the message catalogue, the refusal types,
  // input rules, logging, passwords' hashing, HTML escaping, the API's paths, a time limit (the database imports some).
  ['server/config.ts', 0],
  ['server/messages.ts', 0],
  ['server/http-error.ts', 0],
  ['server/refusal-error.ts', 0],
  ['server/input.ts', 0],
  ['server/input-bounds.ts', 0],
  ['server/log.ts', 0],
  ['server/passwords.ts', 0],
  ['server/html.ts', 0],
  ['server/paths.ts', 0],
  ['server/within-time.ts', 0],
  // One promise chain per key: edits of one record, sends of one submission, one after the other.
  ['server/keyed-mutex.ts', 0],
  // A PDF's raw scan for active content and unpacked size (uploads, stored files, e-invoice PDFs).
  ['server/pdf-scan.ts', 0],
  ['server/db/', 1],
  ['server/erp/', 2],
  ['server/mail/', 2],
  // Documents read and checked: OCR, PDF text, uploads prepared in attachment processes (extract/files.ts).
  ['server/extract/', 2],
  // Supplier e-invoices (issue 55): FacturaE, UBL, CII and Factur-X PDFs read from their XML within limits, checked
  // against their schemas, FacturaE signatures verified.
  ['server/einvoice/', 2],
  ['server/auth/', 3],
  ['server/reports/', 3],
  // What a route does with the ERP (DESIGN.md: routes parse, authorise, call a service, answer).
  ['server/services/', 3],
  // Stored files checked before they are shown (a service of the move routes).
  ['server/stored-files.ts', 3],
  // The operator's work on the database and DATA_DIR: backups and restores (issue 32).
  ['server/ops/', 3],
  ['server/routes/', 4],
  // Prometheus metrics: what the ERP clients, readers, sign-ins and report jobs tell (issue 32).
  ['server/metrics/', 4],
  ['server/app.ts', 5],
  ['server/plugins/', 5],
  // Fastify plugins of every answer: compression, security headers, the documentation's page.
  ['server/compression.ts', 5],
  ['server/security.ts', 5],
  ['server/docsUi.ts', 5],
  ['server/main.ts', 5],
  ['server/stop.ts', 5],
];
const layerOf = (path: string) => LAYERS.find(([place]) => (place.endsWith('/') ? path.startsWith(place) : path === place));

/** The part of the server a file belongs to: its folder under server/, or itself when it is a top-level file. */
const partOf = (path: string) => path.split('/').slice(0, 2).join('/');

/** The loops of a graph (Tarjan's strongly connected components): each a list of nodes that reach each other. */
function loopsOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const loop = stack.splice(stack.indexOf(node));
    if (loop.length > 1 || graph.get(node)?.includes(node)) loops.push(loop.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

describe('server layers (db, erp, auth, routes, app)', () => {
  const files = filesUnder(join(root, 'server'), /\.(ts|mts|mjs)$/);

  it('finds the server modules and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(importsOf(join(root, 'server/routes/moves.ts'))).toContain('server/erp/types.ts');
    expect(importsOf(join(root, 'server/app.ts'))).toContain('server/erp/index.ts');
  });

  it('every server file belongs to a layer', () => {
    const placed = files.map((file) => relative(root, file)).filter((path) => !layerOf(path));
    expect(placed).toEqual([]);
  });

  it('no server module imports itself through others (a loop of imports, type-only ones too)', () => {
    const graph = new Map(files.map((file) => [relative(root, file), importsOf(file).filter((target) => target.startsWith('server/'))]));
    expect(loopsOf(graph).map((loop) => loop.join(' <-> '))).toEqual([]);
  });

  it('no part of the server (a folder, or a top-level file) imports itself through other parts', () => {
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const part = partOf(relative(root, file));
      const targets = importsOf(file).filter((target) => target.startsWith('server/') && partOf(target) !== part).map(partOf);
      graph.set(part, [...new Set([...(graph.get(part) ?? []), ...targets])]);
    }
    expect(graph.get('server/routes')).toContain('server/services');
    expect(loopsOf(graph).map((loop) => loop.join(' <-> '))).toEqual([]);
  });

  it('no module imports from a layer above its own', () => {
    const upward: string[] = [];
    for (const file of files) {
      const path = relative(root, file);
      const own = layerOf(path);
      if (!own) continue;
      for (const target of importsOf(file)) {
        const theirs = layerOf(target);
        if (theirs && theirs[1] > own[1]) upward.push(`${path} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('every route reaches the ERP only through services (server/services)', () => {
    const routeFiles = filesUnder(join(root, 'server/routes'), /\.ts$/);
    expect(routeFiles.map((file) => relative(root, file))).toEqual(expect.arrayContaining(['server/routes/moves.ts', 'server/routes/generic.ts', 'server/routes/reference.ts']));
    const calls = routeFiles.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/\berp\.(\w+)\(/g)].map((match) => `${relative(root, file)}: erp.${match[1]}`);
    });
    expect(calls).toEqual([]);
    expect(importsOf(join(root, 'server/routes/moves.ts'))).toContain('server/services/moves.ts');
  });

  it('the ERP layer knows no HTTP: no HTTP error, no Fastify but its logger, no request header (the routes read them)', () => {
    const http: string[] = [];
    for (const file of filesUnder(join(root, 'server/erp'), /\.ts$/)) {
      const path = relative(root, file);
      const text = readFileSync(file, 'utf8');
      for (const target of importsOf(file)) if (target === 'server/http-error.ts' || /^server\/(routes|plugins)\//.test(target)) http.push(`${path} -> ${target}`);
      for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'fastify'/g)) {
        if (!match[1] || match[2].split(',').some((name) => name.trim() !== 'FastifyBaseLogger')) http.push(`${path} -> fastify {${match[2].trim()}}`);
      }
      if (/\brequest\.headers\b|\bFastifyRequest\b|\bstatusCode\b/.test(text)) http.push(`${path}: reads a request or names a status`);
    }
    expect(http).toEqual([]);
  });

  it('server, console and shared never import each other except through shared', () => {
    const crossing: string[] = [];
    for (const [folder, forbidden] of [
      ['server', ['src/']],
      ['src', ['server/']],
      ['shared', ['server/', 'src/']],
    ] as const) {
      for (const file of filesUnder(join(root, folder), /\.(ts|tsx|mts)$/)) {
        for (const target of importsOf(file)) if (forbidden.some((f) => target.startsWith(f))) crossing.push(`${relative(root, file)} -> ${target}`);
      }
    }
    expect(crossing).toEqual([]);
  });
});

/**
 * Functions of a file with their length in lines: those named as components (Capitalised) or hooks (use...) for the
 * console, every named function for the server.
 */
function functionLengths(file: string, named = /^([A-Z]|use[A-Z])/): Array<{ name: string; lines: number }> {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node) => {
    let name: string | undefined;
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) name = node.name.getText();
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      let value: ts.Node = node.initializer;
      // memo(...) and forwardRef(...) wrap a component.
      while (ts.isCallExpression(value) && value.arguments.length > 0) value = value.arguments[0];
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) name = node.name.text;
    }
    if (name && named.test(name)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: `${relative(root, file)} ${name}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('console components', () => {
  const all = filesUnder(join(root, 'src'), /\.tsx?$/).flatMap((file) => functionLengths(file));

  it('finds the components and hooks', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((c) => c.name.endsWith(' MovePage'))).toBe(true);
  });

  it('none is over 150 lines', () => {
    expect(all.filter((c) => c.lines > 150).map((c) => `${c.name}: ${c.lines} lines`)).toEqual([]);
  });
});

describe('server functions', () => {
  const all = filesUnder(join(root, 'server'), /\.ts$/).flatMap((file) => functionLengths(file, /./));

  it('finds them, buildApp among them', () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all.find((one) => one.name === 'server/app.ts buildApp')?.lines).toBeLessThanOrEqual(150);
  });

  it('none is over 150 lines', () => {
    const long = all.filter((one) => one.lines > 150).map((one) => `${one.name}: ${one.lines} lines`);
    expect(long).toEqual([]);
  });
});

describe('test files that share modules', () => {
  it('those that replace a module or a global (vi.mock, vi.stubGlobal...) are the ones listed to run apart', () => {
    const replacing = ['unit', 'component', 'server']
      .flatMap((folder) => filesUnder(join(root, 'test', folder), /\.test\.tsx?$/))
      .filter((file) => /\bvi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(replacing.sort()).toEqual([...MOCKING].sort());
  });
});
