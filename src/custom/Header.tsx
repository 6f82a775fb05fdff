import { useEffect } from 'react';
import { useLocation, Link as RouterLink } from 'react-router-dom';
import { AppBar, LoadingIndicator, ToggleThemeButton, UserMenu, useGetIdentity, useLocaleState, useTranslate, useUserMenu } from 'react-admin';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import LanguageIcon from '@mui/icons-material/Translate';
import LogoutIcon from '@mui/icons-material/Logout';
import { titleKeyFor } from './titles';
import { UserAvatar } from './UserAvatar';

function PageTitle() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const title = translate(titleKeyFor(pathname));
  useEffect(() => {
    document.title = `${title} · ${translate('app.name')}`;
  }, [title, translate]);
  return (
    <Typography component="h1" variant="h6" noWrap sx={{ flex: 1, ml: 1 }} data-testid="page-title">
      {title}
    </Typography>
  );
}

function LanguageToggle() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const { onClose } = useUserMenu() ?? {};
  const other = locale === 'en' ? 'es' : 'en';
  return (
    <MenuItem
      onClick={() => {
        setLocale(other);
        onClose?.();
      }}
      data-testid="language-toggle"
      lang={other}
    >
      <ListItemIcon>
        <LanguageIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText primary={other === 'en' ? 'English' : 'Español'} secondary={translate('app.userMenu.language')} />
    </MenuItem>
  );
}

function SignOutItem() {
  const translate = useTranslate();
  return (
    <MenuItem component={RouterLink} to="/sign-out" data-testid="sign-out">
      <ListItemIcon>
        <LogoutIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText primary={translate('app.userMenu.signOut')} />
    </MenuItem>
  );
}

function AccountMenu() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  if (!identity) return null;
  return (
    <UserMenu
      // The button shows the user's name: its accessible name starts with it (axe: label-content-name-mismatch).
      label={`${identity.fullName ?? ''} · ${translate('app.userMenu.open')}`}
      icon={<UserAvatar imageUrl={identity.avatar} firstName={identity.firstName} lastName={identity.lastName} />}
    >
      {/* Who is signed in, as an item of the menu (a menu holds only items and separators): shown, not chosen. */}
      <MenuItem disabled sx={{ display: 'block', minWidth: 220, '&.Mui-disabled': { opacity: 1 } }} data-testid="user-identity">
        <Typography variant="subtitle1" component="span" sx={{ display: 'block' }}>{identity.fullName}</Typography>
        <Typography variant="body2" component="span" color="text.secondary" sx={{ display: 'block' }}>
          {identity.email}
        </Typography>
      </MenuItem>
      <Divider />
      <LanguageToggle />
      <SignOutItem />
    </UserMenu>
  );
}

/** An accessible name for react-admin's app-bar spinner, which passes any prop it does not know to MUI's CircularProgress. */
const loaderName = (label: string) => ({ 'aria-label': label }) as object;

/** Header of spec section 2: logo linking home, the page title and the user menu. */
export function Header() {
  const translate = useTranslate();
  return (
    <AppBar
      userMenu={<AccountMenu />}
      toolbar={
        <>
          <ToggleThemeButton />
          {/* Its spinner, shown while anything loads, is named as react-admin's loading page names itself. */}
          <LoadingIndicator {...loaderName(translate('ra.page.loading'))} />
        </>
      }
    >
      <Box
        component={RouterLink}
        to="/"
        aria-label={translate('app.titles.home')}
        sx={{ display: 'flex', alignItems: 'center', color: 'inherit' }}
        data-testid="logo"
      >
        <img src="/logo.svg" alt={translate('app.name')} width={28} height={28} />
      </Box>
      <PageTitle />
    </AppBar>
  );
}
