import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import type { MoveValues, Provider, UnmatchedSupplier } from './moveTypes';

interface Options {
  companyId: MoveValues['company_id'];
  /** The supplier read that no stored one matches. */
  unread: UnmatchedSupplier | null;
  setPicked: (provider: Provider) => void;
  /** Told once the supplier is created and chosen. */
  onCreated: () => void;
}

/** An e-invoice's address as the creation takes it (issue 55): its four parts, the country only as an ISO code. */
function addressOf({ street, city, postalCode, country }: NonNullable<UnmatchedSupplier['address']>) {
  return { ...(street ? { street } : {}), ...(city ? { city } : {}), ...(postalCode ? { postalCode } : {}), ...(country && /^[A-Za-z]{2}$/.test(country) ? { country } : {}) };
}

/** The supplier read from the document, created for the company and chosen (POST /odoo/providers/create). */
export function useSupplierCreation({ companyId, unread, setPicked, onCreated }: Options) {
  const notify = useNotify();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const { setValue, formState } = useFormContext<MoveValues>();
  const [creatingSupplier, setCreatingSupplier] = useState(false);

  async function createSupplier() {
    if (!unread || !companyId) return;
    setCreatingSupplier(true);
    try {
      const created = await dataProvider.action<Provider>('providers', 'create', { body: { companyId, name: unread.name, ...(unread.vat ? { vat: unread.vat } : {}), ...(unread.address ? { address: addressOf(unread.address) } : {}) } });
      setPicked(created);
      setValue('partner_id', created.id, { shouldDirty: true, shouldValidate: formState.isSubmitted });
      onCreated();
      void queryClient.invalidateQueries({ queryKey: ['providers'] });
      notify('app.move.supplierCreated', { type: 'success', messageArgs: { name: created.name } });
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setCreatingSupplier(false);
    }
  }
  return { creatingSupplier, createSupplier };
}
