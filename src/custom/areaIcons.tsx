import type { ComponentType } from 'react';
import ViewListIcon from '@mui/icons-material/ViewList';
// Made from the declarations at build time (scripts/area-icons.ts): exactly the MUI icons the screens name.
import { AREA_ICONS } from 'virtual:area-icons';

export { AREA_ICONS };

/** For a screen without a declared icon (the declarations' type asks for one; a fixture may omit it). */
export const FALLBACK_ICON: ComponentType = ViewListIcon;

export function areaIcon(name: string | undefined): ComponentType {
  return (name !== undefined && Object.hasOwn(AREA_ICONS, name) ? AREA_ICONS[name] : undefined) ?? FALLBACK_ICON;
}
