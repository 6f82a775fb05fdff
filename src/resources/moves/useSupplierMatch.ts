import { useEffect, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { errorMessage } from '../../providers/http';
import type { MoveValues, Provider, SupplierRead, SupplierSearch, UnmatchedSupplier } from './moveTypes';
import { matchSupplier } from './supplierMatching';

interface Options {
  companyId: MoveValues['company_id'];
  /** The chosen company's stored suppliers, once loaded. */
  stored: readonly Provider[] | undefined;
  searchProviders: SupplierSearch;
  setPicked: (provider: Provider | null) => void;
  /** Told when the supplier looked up was chosen (and the lookup still stands). */
  onMatched: () => void;
}

/**
 * The supplier a document reading found, looked for among the company's suppliers. It is looked for once a company is
 * chosen and its suppliers are loaded: at once when one is, else when the user chooses one, and again when the company
 * changes (the name read is not lost). Each lookup is numbered: one overtaken by another company, another reading or
 * a send writes nothing. A supplier read that no stored supplier matches is said under the box (`unread`, issue 17).
 */
export function useSupplierMatch({ companyId, stored, searchProviders, setPicked, onMatched }: Options) {
  const notify = useNotify();
  const { setValue, formState } = useFormContext<MoveValues>();
  const [unread, setUnread] = useState<UnmatchedSupplier | null>(null);
  // The supplier the last reading found (its name and tax id), looked for again when the company changes; and one
  // waiting for a company to be chosen, or for the chosen company's suppliers to load.
  const [lastRead, setLastRead] = useState<SupplierRead | null>(null);
  const [pendingSupplier, setPendingSupplier] = useState<SupplierRead | null>(null);
  const matching = useRef<SupplierRead | null>(null);
  const supplierLookup = useRef(0);
  useEffect(() => {
    if (!pendingSupplier || !companyId || !stored || matching.current === pendingSupplier) return;
    const read = pendingSupplier;
    matching.current = read;
    const lookup = ++supplierLookup.current;
    const current = () => supplierLookup.current === lookup;
    const how = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    const choose = (found: Provider) => {
      setPicked(found);
      setValue('partner_id', found.id, how);
    };
    matchSupplier(companyId, read, stored, { search: searchProviders, choose, sayUnmatched: setUnread, current })
      .then((chosen) => {
        if (chosen && current()) onMatched();
      })
      .catch((error: unknown) => notify(errorMessage(error), { type: 'error' }))
      .finally(() => setPendingSupplier((current) => (current === read ? null : current)));
  }, [pendingSupplier, companyId, stored, searchProviders, setPicked, setValue, formState.isSubmitted, notify, onMatched]);

  /** Asks for `read` to be looked up (a fresh request, even for the same reading), or for nothing; overtakes any under way. */
  const lookUpSupplier = (read: SupplierRead | null) => {
    supplierLookup.current++;
    setPendingSupplier(read && { ...read });
  };
  return {
    unread,
    /** The supplier no stored one matches is no longer said (one was chosen, or created). */
    dismiss: () => setUnread(null),
    /** A reading found `read` (or no supplier): it is looked for. */
    found: (read: SupplierRead | null) => {
      setLastRead(read);
      lookUpSupplier(read);
    },
    /** The company changed: the same reading is looked for again, for the new company. */
    lookAgain: () => {
      setUnread(null);
      lookUpSupplier(lastRead);
    },
    /** The reading no longer stands (a new file, a new reading, a send): nothing is looked for. */
    forget: () => {
      setUnread(null);
      setLastRead(null);
      lookUpSupplier(null);
    },
  };
}
