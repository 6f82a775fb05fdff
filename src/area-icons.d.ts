declare module 'virtual:area-icons' {
  import type { ComponentType } from 'react';
  /** Each icon name the resource declarations use -> its MUI icon (scripts/area-icons.ts). */
  export const AREA_ICONS: Readonly<Record<string, ComponentType>>;
}
