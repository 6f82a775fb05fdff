import type { MoveType, MoveValues } from './moveTypes';

/** What the Move page's send waits for, in the form's order (issue 51: a disabled ENVIAR says what is missing). No React. */
export type MoveNeed = 'company' | 'file' | 'paymentMethod';

export function moveSendNeeds({ tab, companyId, file, paymentMethod }: { tab: MoveType; companyId: MoveValues['company_id']; file: File | null; paymentMethod: string | undefined }): MoveNeed[] {
  const needs: MoveNeed[] = [];
  if (!companyId) needs.push('company');
  if (!file) needs.push('file');
  // An invoice has a payment status instead.
  if (tab === 'expense' && !paymentMethod) needs.push('paymentMethod');
  return needs;
}
