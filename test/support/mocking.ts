/**
 * The test files that replace a module of the product (vi.mock) or a global: they run with modules of their own (the
 * '<name>-mocks' projects of vitest.config.ts), apart from the files that share a worker's modules. The structure
 * test fails when a file does this and is not listed here.
 */
export const MOCKING = ['test/component/recipe-departments.test.tsx', 'test/server/recipe-departments.test.ts', 'test/server/recipe-seed.test.ts'];
