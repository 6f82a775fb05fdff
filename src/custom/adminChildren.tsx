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

function resourceElement(resource: ResourceDeclaration, views: ResourceViews): ReactElement {
  const routes = Object.fromEntries(STANDARD_VIEWS.flatMap((view) => (views[view] ? [[view, guarded(resource, view, views[view])]] : [])));
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
