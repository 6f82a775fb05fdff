import { Notification } from 'react-admin';
import { usePhone } from './usePhone';

const TOP = { vertical: 'top', horizontal: 'center' } as const;

/**
 * react-admin's notifications, at the top of the screen on a phone: at the bottom (react-admin's place) a message
 * covered the form's send button, the last thing on a phone's screen, for the five seconds it shows.
 */
export function AppNotification() {
  const phone = usePhone();
  return <Notification {...(phone ? { anchorOrigin: TOP } : {})} />;
}
