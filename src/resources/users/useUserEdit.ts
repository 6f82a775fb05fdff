import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate, useUpdate } from 'react-admin';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage, fieldErrorsOf, refusalOf, serverMessageOr } from '../../providers/http';
import { useIsAdmin, useUsersChanged } from './useUsers';
import { USERS, type UserRecord } from './userRecords';

/**
 * The edit of a user (spec section 2, PUT /users/:id): the names and companies typed, the server's refusals on the
 * fields it named, and its 409 when someone else changed the user meanwhile, with the reload that takes their change.
 */
export function useUserEdit(opened: UserRecord, onClose: (changed: boolean) => void) {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useIsAdmin();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const usersChanged = useUsersChanged();
  // The record the edit starts from: the one opened, or the one reloaded after someone else changed it.
  const [user, setUser] = useState(opened);
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [chosen, setChosen] = useState<number[]>(user.companies);
  const [touched, setTouched] = useState(false);
  // The server's 409: someone else changed the user since it was read (who and when, in the message).
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  // What the server refused, on the field it named (firstName, lastName, companies), until that field changes.
  const [refused, setRefused] = useState<Record<string, string>>({});
  const missing = { first: !firstName.trim(), last: !lastName.trim() };
  const changed = (field: string) => setRefused(({ [field]: _gone, ...rest }) => rest);
  const helper = (field: string, isMissing: boolean) => refused[field] ?? (touched && isMissing ? translate('app.users.fieldRequired') : ' ');
  // PUT /users/:id with the spec's edit payload.
  const [update] = useUpdate();

  async function save() {
    setTouched(true);
    if (missing.first || missing.last) return;
    try {
      // The version read goes with the edit: a change made meanwhile by someone else is not overwritten (409).
      const data = { firstName: firstName.trim(), lastName: lastName.trim(), ...(admin ? { companies: chosen } : {}), ...(user.version === undefined ? {} : { version: user.version }) };
      await update('users', { id: user.id, data, previousData: user }, { returnPromise: true });
      notify('app.users.saved', { type: 'success' });
      onClose(true);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal?.status === 409 && refusal.code === 'users.stale') {
        setStale(refusal.message ?? translate('app.users.staleFallback'));
        return;
      }
      setRefused(fieldErrorsOf(error) ?? {});
      notify(errorMessage(error), { type: 'error' });
    }
  }

  /** Reads the user again (what the other person saved) into the form, with its new version. */
  async function reload() {
    setReloading(true);
    try {
      const { data } = await dataProvider.getList<UserRecord>('users', { filter: { email: user.email }, pagination: { page: 1, perPage: 25 }, sort: USERS.defaultSort! });
      const fresh = data.find((one) => one.id === user.id);
      if (!fresh) {
        notify('app.users.reloadGone', { type: 'error' });
        onClose(true);
        return;
      }
      setUser(fresh);
      setFirstName(fresh.firstName);
      setLastName(fresh.lastName);
      setChosen(fresh.companies);
      setRefused({});
      setStale(null);
      void usersChanged();
    } catch (error) {
      notify(serverMessageOr(error, 'app.users.searchError'), { type: 'error' });
    } finally {
      setReloading(false);
    }
  }

  return { admin, user, firstName, setFirstName, lastName, setLastName, chosen, setChosen, touched, missing, refused, changed, helper, stale, reloading, save, reload };
}
