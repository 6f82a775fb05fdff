import type { ComponentType, ReactElement } from 'react';
import { CustomRoutes, Resource, ResourceContextProvider } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { AREAS, LEGACY_REDIRECTS } from '../../shared/domain/areas';
import { RESOURCES } from '../../shared/resources/registry';
import type { ResourceDeclaration } from '../../shared/resources/types';
import { viewNamed, viewPermissions } from '../resources/generic/offer';
import { STANDARD_VIEWS, type ResourceViews } from '../resources/generic/types';
import { viewsOf } from '../resources/generic/views';
import { areaIcon } from './areaIcons';
import { AreaRoute } from './AreaRoute';

/** A view behind the permission its screen (or else its verb) needs, as authProvider.canAccess decides it. */
function guarded(resource: ResourceDeclaration, view: string, View: ComponentType): ReactElement {
  return (
    <AreaRoute area={{ permissions: viewPermissions(resource, view) }}>
      <View />
    </AreaRoute>
  );
}

/**
 * react-admin's own path of a view that the spec serves elsewhere (/moves -> /moves-list, /orders/create -> /order)
 * leads there, so links react-admin builds (redirect('list'), the create button) reach the spec's screen.
 */
function specPathOf(resource: ResourceDeclaration, view: string): string | undefined {
  const own: Record<string, string> = { list: `/${resource.name}`, create: `/${resource.name}/create` };
  const screen = resource.screens?.find((one) => one.view === view);
  return screen && own[view] && screen.path !== own[view] ? screen.path : undefined;
}

function resourceElement(resource: ResourceDeclaration, views: ResourceViews): ReactElement {
  const routes = Object.fromEntries(
    STANDARD_VIEWS.flatMap((view) => {
      if (!views[view]) return [];
      const elsewhere = specPathOf(resource, view);
      return [[view, elsewhere ? <Navigate to={elsewhere} replace /> : guarded(resource, view, views[view])]];
    }),
  );
  return (
    <Resource
      key={resource.name}
      name={resource.name}
      {...routes}
      icon={views.icon ?? areaIcon(resource.screens?.[0]?.icon)}
      recordRepresentation={views.recordRepresentation ?? resource.recordRepresentation}
    />
  );
}

/**
 * Everything the console routes, from the declarations (shared/resources) and the resource folders' views: a
 * `<Resource>` per declared resource that lists or has screens (reference lists get one without views, so selects
 * can read them), the spec's screen paths (AREAS) behind their permission guard in their resource's context, and the
 * legacy redirects. Nothing here names a resource.
 */
export function adminChildren(bespoke: Readonly<Record<string, ResourceViews>>): ReactElement {
  const declared = RESOURCES.filter((resource) => resource.verbs.list || resource.screens?.length);
  const views = new Map(declared.map((resource) => [resource.name, viewsOf(resource, bespoke)]));
  return (
    <>
      {declared.map((resource) => resourceElement(resource, views.get(resource.name)!))}
      <CustomRoutes noLayout>
        {Object.entries(LEGACY_REDIRECTS).map(([from, to]) => (
          <Route key={from} path={from} element={<Navigate to={to} replace />} />
        ))}
      </CustomRoutes>
      <CustomRoutes>
        {AREAS.map((area) => {
          const Screen = viewNamed(views.get(area.resource) ?? {}, area.view);
          if (!Screen) throw new Error(`Screen ${area.id}: ${area.resource} has no view ${area.view}`);
          return (
            <Route
              key={area.id}
              path={area.path}
              element={
                <ResourceContextProvider value={area.resource}>
                  <AreaRoute area={area}>
                    <Screen />
                  </AreaRoute>
                </ResourceContextProvider>
              }
            />
          );
        })}
      </CustomRoutes>
    </>
  );
}
