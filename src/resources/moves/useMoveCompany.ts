import { useEffect, useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useReferenceList } from '../../providers/useReferenceList';
import { LAST_COMPANY_KEY, activeCompany } from './moveFormRules';
import type { Company, MoveValues } from './moveTypes';

/**
 * The user's companies and the one the form works in (remembered for the next visit), with its projects. The list is
 * a reference list read once, shared with other screens: the page has just read it (a failure included: asked again
 * by the retry, not by this form's first render).
 */
export function useMoveCompany() {
  const { setValue } = useFormContext<MoveValues>();
  const companiesQuery = useReferenceList<Company>('companies', undefined, { retryOnMount: false });
  const companies = useMemo(() => companiesQuery.data ?? [], [companiesQuery.data]);
  const chosenCompany = useWatch<MoveValues, 'company_id'>({ name: 'company_id' });
  // The remembered company while the list loads; then it if it is still one of the user's, else the only one.
  const companyId = activeCompany(companiesQuery.data, chosenCompany);
  useEffect(() => {
    if (companiesQuery.data && chosenCompany !== companyId) setValue('company_id', companyId);
  }, [companiesQuery.data, chosenCompany, companyId, setValue]);
  useEffect(() => {
    if (companyId) localStorage.setItem(LAST_COMPANY_KEY, String(companyId));
  }, [companyId]);
  const company = companies.find((one) => one.id === companyId);
  const projects = useMemo(() => company?.projects ?? [], [company]);
  return { companiesQuery, companies, companyId, company, projects };
}
