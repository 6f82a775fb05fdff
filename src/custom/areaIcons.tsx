import type { ComponentType } from 'react';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import AddCardIcon from '@mui/icons-material/AddCard';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import ContactsIcon from '@mui/icons-material/Contacts';
import AssessmentIcon from '@mui/icons-material/Assessment';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BadgeIcon from '@mui/icons-material/Badge';
import WorkIcon from '@mui/icons-material/Work';
import ViewListIcon from '@mui/icons-material/ViewList';

/**
 * The icon set the declarations name (`screens[].icon`). Only these are bundled: importing MUI's whole icon set by
 * name would ship thousands of icons. A name missing here gets the generic icon.
 */
export const AREA_ICONS: Readonly<Record<string, ComponentType>> = {
  FactCheck: FactCheckIcon,
  ReceiptLong: ReceiptLongIcon,
  AddCard: AddCardIcon,
  AddShoppingCart: AddShoppingCartIcon,
  ShoppingCart: ShoppingCartIcon,
  PersonAdd: PersonAddIcon,
  Contacts: ContactsIcon,
  Assessment: AssessmentIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  Badge: BadgeIcon,
  Work: WorkIcon,
};

export const FALLBACK_ICON: ComponentType = ViewListIcon;

export function areaIcon(name: string | undefined): ComponentType {
  return (name !== undefined && Object.hasOwn(AREA_ICONS, name) ? AREA_ICONS[name] : undefined) ?? FALLBACK_ICON;
}
