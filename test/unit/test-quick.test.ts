import { describe, expect, it } from 'vitest';
import { chooseByGraph, importsIn, names, type Graph, type Root } from '../../scripts/import-graph';
import { testsFor } from '../../scripts/test-quick';

/** A small project: a server root with two route modules, a service each, a shared rule, a harness. */
function graphOf(imports: Record<string, string[]>, text: Record<string, string> = {}): Graph {
  return { imports: new Map(Object.entries(imports)), text: new Map(Object.entries(text)) };
}
const SMALL = graphOf(
  {
    'server/app.ts': ['server/routes/orders.ts', 'server/routes/moves.ts', 'server/db.ts'],
    'server/routes/orders.ts': ['server/services/orders.ts', 'shared/rule.ts'],
    'server/routes/moves.ts': ['server/services/moves.ts'],
    'server/services/orders.ts': [],
    'server/services/moves.ts': [],
    'server/db.ts': [],
    'shared/rule.ts': [],
    'test/server/helpers.ts': ['server/app.ts'],
    'test/server/orders.test.ts': ['test/server/helpers.ts'],
    'test/server/moves.test.ts': ['test/server/helpers.ts'],
    'test/unit/rule.test.ts': ['shared/rule.ts'],
  },
  {
    'test/server/helpers.ts': "inject({ url: '/odoo/orders/search' }); inject({ url: '/odoo/moves/search' })",
    'test/server/orders.test.ts': "post('/odoo/orders/create')",
    'test/server/moves.test.ts': "post('/odoo/moves/create')",
  },
);
const ROOTS: Root[] = [{ file: 'server/app.ts', entries: new Map([['server/routes/orders.ts', ['/odoo/orders']], ['server/routes/moves.ts', ['/odoo/moves']]]) }];
const TESTS = ['test/server/orders.test.ts', 'test/server/moves.test.ts', 'test/unit/rule.test.ts'];
const chosen = (changed: string[]) => [...chooseByGraph(SMALL, ROOTS, changed, TESTS).keys()].sort();

describe('npm run test:quick picks the tests a change can alter, by the import graph', () => {
  it("runs a service's tests through the app's root only when they call its route module, not the harness's calls", () => {
    expect(chosen(['server/services/orders.ts'])).toEqual(['test/server/orders.test.ts']);
    expect(chosen(['server/services/moves.ts'])).toEqual(['test/server/moves.test.ts']);
  });

  it("runs every test through the root for a change of the root's own machinery, and the importers of a shared rule", () => {
    expect(chosen(['server/db.ts'])).toEqual(['test/server/moves.test.ts', 'test/server/orders.test.ts']);
    expect(chosen(['server/app.ts'])).toEqual(['test/server/moves.test.ts', 'test/server/orders.test.ts']);
    expect(chosen(['shared/rule.ts'])).toEqual(['test/server/orders.test.ts', 'test/unit/rule.test.ts']);
  });

  it('runs a changed test itself, and nothing for a file no test reaches', () => {
    expect(chosen(['test/unit/rule.test.ts'])).toEqual(['test/unit/rule.test.ts']);
    expect(chosen(['README.md'])).toEqual([]);
  });

  it('reads imports of every kind, a worker by its URL, a glob and a program started by its path', () => {
    const known = new Set(['src/a.ts', 'src/b.tsx', 'src/c/index.ts', 'src/w.ts', 'src/r/x/index.ts', 'src/r/y/index.ts', 'server/main.ts', 'src/main.ts']);
    const text = [
      "import { a } from './a';",
      "export * from './b';",
      "const c = await import('./c');",
      "new Worker(new URL('./w.ts', import.meta.url));",
      "import.meta.glob('./r/*/index.ts');",
      "spawn(node, ['server/main.ts']);",
      "const label = 'src/main.ts';",
    ].join('\n');
    expect(importsIn('/p', 'src/main.ts', text, known).sort()).toEqual(['server/main.ts', 'src/a.ts', 'src/b.tsx', 'src/c/index.ts', 'src/r/x/index.ts', 'src/r/y/index.ts', 'src/w.ts']);
  });

  it('names an address as a whole path segment', () => {
    expect(names("post('/odoo/orders/search')", '/odoo/orders')).toBe(true);
    expect(names('`/odoo/orders?page=2`', '/odoo/orders')).toBe(true);
    expect(names("post('/odoo/orders-archive')", '/odoo/orders')).toBe(false);
  });
});

describe('on this project', () => {
  const files = (changed: string) => testsFor([changed]).map(([file]) => file);

  it('an orders service runs the server tests that call /odoo/orders, not the contacts or users tests', () => {
    const picked = files('server/services/order-changes.ts');
    expect(picked).toEqual(expect.arrayContaining(['test/server/orders.test.ts', 'test/server/declared-filters.test.ts', 'test/unit/structure.test.ts']));
    expect(picked).not.toContain('test/server/contacts.test.ts');
    expect(picked).not.toContain('test/server/users-search.test.ts');
    expect(picked.filter((file) => file.startsWith('test/component/'))).toEqual([]);
  });

  it('an orders console file runs the component tests that render it, not the moves or contacts screens', () => {
    const picked = files('src/resources/orders/orderNumbers.ts');
    expect(picked).toContain('test/component/orders.test.tsx');
    expect(picked).not.toContain('test/component/moves.test.tsx');
    expect(picked).not.toContain('test/component/contacts.test.tsx');
    expect(picked.filter((file) => file.startsWith('test/server/'))).toEqual([]);
  });

  it('a test helper runs the tests that import it', () => {
    const picked = files('test/support/receipt.ts');
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.every((file) => file.startsWith('test/'))).toBe(true);
  });
});
