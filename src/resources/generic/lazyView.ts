import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type ViewOf<Component> = Component extends ComponentType<infer Props> ? ComponentType<Props> : never;

/**
 * A view loaded when it is first shown: `lazyView(() => import('./MoveList'), 'MoveList')`. Each screen's code, and
 * what only it uses, stays out of the console's first download (issue 16); a view shows the nearest Suspense's wait
 * meanwhile (the layout's for a screen).
 */
export function lazyView<Module, Name extends keyof Module & string>(load: () => Promise<Module>, name: Name): LazyExoticComponent<ViewOf<Module[Name]>> {
  return lazy(() => load().then((module) => ({ default: module[name] as ViewOf<Module[Name]> })));
}
