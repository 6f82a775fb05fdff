/**
 * react-router-dom as the built console uses it (scripts/stand-ins.ts aliases the package here for the build): everything
 * react-router exports, without the data routers. react-admin's router adapter (ra-core reactRouterProvider) imports
 * createHashRouter and RouterProvider for an app that has no router of its own; the console always has one (its
 * BrowserRouter, src/App.tsx), so they are never called, yet importing them ships react-router's whole data-router
 * runtime: about 90 KB of the 1 MB the signed-in console loads (25 KB on the wire). These stand-ins say so if
 * anything ever calls them.
 */
export * from 'react-router';

function noDataRouter(name: string): never {
  throw new Error(`${name}: the console runs in its own BrowserRouter (src/App.tsx); react-router's data routers are not in the build (src/shims/react-router-dom.ts)`);
}

export function createHashRouter(): never {
  return noDataRouter('createHashRouter');
}

export function createMemoryRouter(): never {
  return noDataRouter('createMemoryRouter');
}

export function createBrowserRouter(): never {
  return noDataRouter('createBrowserRouter');
}

export function RouterProvider(): never {
  return noDataRouter('RouterProvider');
}
