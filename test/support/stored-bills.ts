import type { ErpClient } from '../../server/erp/types';

/**
 * The bills with this reference as the ERP holds them, each with its submission key, how many files it has and how
 * many notes of its uploader ("Nota <ref>"): what a whole-or-nothing test expects to find exactly once, whole.
 */
export async function storedBills(erp: ErpClient, ref: string) {
  const moves = await erp.searchRead('account.move', [['ref', '=', ref]], { fields: ['id', 'x_backoffice_key'] });
  return Promise.all(
    moves.map(async (move) => ({
      id: move.id,
      key: move.x_backoffice_key,
      files: await erp.searchCount('ir.attachment', [['res_model', '=', 'account.move'], ['res_id', '=', move.id]]),
      notes: await erp.searchCount('mail.message', [['model', '=', 'account.move'], ['res_id', '=', move.id], ['message_type', '=', 'comment'], ['body', 'ilike', `Nota ${ref}`]]),
    })),
  );
}
