import { SelectInput } from 'react-admin';
import { declaredFilters, type FilterInputProps } from '../generic/filters';
import { useCompanies } from './useUsers';
import { companyNames, USERS } from './userRecords';

/** The companies filter: one of the user's companies, by name (the declaration names no list to fill it from). */
function CompanyFilter(props: FilterInputProps) {
  const { companies } = useCompanies();
  return <SelectInput {...props} choices={companies} />;
}

/** A company filter's chip: the company's name. */
function CompanyChip({ value }: { value: unknown }) {
  const { companies } = useCompanies();
  return <>{companyNames(companies, [value])}</>;
}

/** The list's filters, as users.resource.ts declares them; the companies' select filled here. */
export const USER_FILTERS = declaredFilters(USERS, { companyId: CompanyFilter });

/** How the chips name the filters' values the inputs cannot name themselves. */
export const USER_FILTER_CHIPS = { companyId: CompanyChip };
