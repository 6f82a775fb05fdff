import { SelectInput, useTranslate } from 'react-admin';
import { LoadError } from '../../custom/LoadError';
import { REQUIRED } from './moveFormRules';
import type { Company, MoveValues, Project } from './moveTypes';
import { MoveRow } from './MoveRow';

interface Props {
  companies: Company[];
  projects: Project[];
  companyId: MoveValues['company_id'];
  /** Why the companies could not be read, with a way to read them again. */
  loadError: unknown;
  onRetry: () => void;
  onCompanyChange: () => void;
}

/** The company the move is for, and its project (enabled once a company is chosen). */
export function MoveCompanyFields({ companies, projects, companyId, loadError, onRetry, onCompanyChange }: Props) {
  const translate = useTranslate();
  return (
    <>
      {loadError ? <LoadError message="app.move.companiesError" error={loadError} onRetry={onRetry} testId="companies-error" /> : null}
      <MoveRow help={translate('app.move.help.company')}>
        <SelectInput source="company_id" label="app.move.fields.company" choices={companies} translateChoice={false} validate={REQUIRED} onChange={onCompanyChange} inputProps={{ 'data-testid': 'company' }} />
      </MoveRow>
      <MoveRow help={translate('app.move.help.project')}>
        <SelectInput source="project" label="app.move.fields.project" choices={projects} translateChoice={false} emptyText="app.move.noProject" disabled={!companyId} helperText={false} />
      </MoveRow>
    </>
  );
}
