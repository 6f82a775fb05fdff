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
import type { AreaId } from '../../shared/domain/areas';

export const AREA_ICONS: Record<AreaId, ComponentType> = {
  validation: FactCheckIcon,
  movesList: ReceiptLongIcon,
  move: AddCardIcon,
  order: AddShoppingCartIcon,
  orderList: ShoppingCartIcon,
  contact: PersonAddIcon,
  contactList: ContactsIcon,
  paymentsReport: AssessmentIcon,
  permissionsManagement: AdminPanelSettingsIcon,
};
