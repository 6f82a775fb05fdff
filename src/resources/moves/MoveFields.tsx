import { TextInput, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import Box from '@mui/material/Box';
import { multiLineText } from '../../custom/inputs/textRules';
import { CaptureQueue } from '../../offline/CaptureQueue';
import { DocumentPreview } from './DocumentPreview';
import { DuplicateWarning } from './DuplicateWarning';
import type { MoveType, MoveValues, Provider } from './moveTypes';
import { useAiMarks } from './useAiMarks';
import { useMoveCompany } from './useMoveCompany';
import { useMoveDrafts } from './useMoveDrafts';
import { useMoveReading } from './useMoveReading';
import { useMoveSubmission } from './useMoveSubmission';
import { useSupplierChoices } from './useSupplierChoices';
import { ReferenceLoadError } from '../../custom/ReferenceLoadError';
import { useSupplierCreation } from './useSupplierCreation';
import { useSupplierMatch } from './useSupplierMatch';
import { MoveAmountFields } from './MoveAmountFields';
import { MoveCompanyFields } from './MoveCompanyFields';
import { MoveDateField } from './MoveDateField';
import { MoveDrafts } from './MoveDrafts';
import { MoveFileField } from './MoveFileField';
import { MoveRow } from './MoveRow';
import { MoveSendBar } from './MoveSendBar';
import { MoveSupplierField } from './MoveSupplierField';

/** The Move form's inputs, inside react-admin's Form: its values, validation and reset are react-hook-form's. */
export function MoveFields({ tab, onTab }: { tab: MoveType; onTab: (tab: MoveType) => void }) {
  const translate = useTranslate();
  const { setValue, setFocus } = useFormContext<MoveValues>();
  const { companiesQuery, companies, companyId, company, projects } = useMoveCompany();
  const suppliers = useSupplierChoices(companyId);
  const marks = useAiMarks();
  const matching = useSupplierMatch({ companyId, stored: suppliers.stored, searchProviders: suppliers.searchProviders, setPicked: suppliers.setPicked, onMatched: marks.markSupplier });
  const creation = useSupplierCreation({ companyId, unread: matching.unread, setPicked: suppliers.setPicked, onCreated: matching.dismiss });
  const doc = useMoveReading({ marks, setPicked: suppliers.setPicked, supplier: matching });
  const batch = useMoveDrafts({
    onReview: (file, result, moveType) => {
      onTab(moveType);
      doc.takeRead(file, result);
    },
  });
  const submission = useMoveSubmission({
    tab,
    companyId,
    company,
    projects,
    file: doc.file,
    extras: () => doc.billExtras(tab),
    onSent: () => {
      suppliers.setPicked(null);
      marks.clear();
      matching.forget();
      doc.readyForNext();
      void batch.sent();
    },
  });

  /** One file is the form's; several at once each become a draft, read in the background (issue 33, item 1). */
  function filesChosen(files: File[]) {
    if (files.length > 1) return void batch.upload(files, tab);
    batch.forget();
    doc.chooseFile(files[0] ?? null);
  }

  function companyChanged() {
    setValue('project', '');
    setValue('partner_id', '');
    suppliers.forgetChoices();
    matching.lookAgain();
  }
  function supplierChosen(record: Provider | undefined) {
    if (record) suppliers.setPicked(record);
    marks.edited('provider');
    matching.dismiss();
  }

  return (
    <Box sx={{ display: 'grid', gap: 3, alignItems: 'start', gridTemplateColumns: { xs: '1fr', md: doc.file ? 'minmax(0, 1fr) minmax(0, 1fr)' : '1fr' } }}>
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      {/* Moves captured without a network, waiting to be sent, and files shared to the app (issue 33, item 2). */}
      <CaptureQueue onFillIn={doc.chooseFile} onSharedMany={(files, keys) => batch.upload(files, tab, keys)} />
      <MoveCompanyFields companies={companies} projects={projects} companyId={companyId} loadError={companiesQuery.error} onRetry={() => void companiesQuery.refetch()} onCompanyChange={companyChanged} />
      <MoveSupplierField
        choices={suppliers.options}
        disabled={!companyId}
        marks={marks}
        unread={matching.unread}
        creating={creation.creatingSupplier}
        onCreate={() => void creation.createSupplier()}
        onTyped={suppliers.setTyped}
        onChosen={supplierChosen}
      />
      <ReferenceLoadError label="app.move.fields.supplier" error={suppliers.loadError} onRetry={suppliers.retryLoad} sx={{ mt: -1, mb: 2 }} />
      <MoveAmountFields tab={tab} marks={marks} />
      <MoveDateField marks={marks} />
      <MoveFileField doc={doc} onFiles={filesChosen} tab={tab} />
      <MoveRow help={translate('app.move.help.comment')}>
        <TextInput source="comment" label="app.move.fields.comment" validate={multiLineText} multiline rows={5} helperText={false} inputProps={{ maxLength: 10000 }} />
      </MoveRow>
      <MoveSendBar progress={submission.progress} noCompanies={companiesQuery.isSuccess && !companies.length} canSend={submission.canSend} missing={submission.missing} tab={tab} onSend={submission.submit} />
      {submission.duplicates && (
        <DuplicateWarning duplicates={submission.duplicates} busy={submission.progress !== null} onSaveAnyway={() => void submission.saveAnyway()} onKeepEditing={submission.keepEditing} />
      )}
      <MoveDrafts drafts={batch} onReviewed={() => setFocus('concept')} />
    </Box>
    {doc.file && (
      // Beside the form on a wide screen, while what was read is reviewed; a phone has the photo just taken.
      <Box sx={{ display: { xs: 'none', md: 'block' }, position: 'sticky', top: 72 }}>
        <DocumentPreview file={doc.file} height="calc(100vh - 180px)" />
      </Box>
    )}
    </Box>
  );
}
