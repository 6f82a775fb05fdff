/**
 * Issue 33, item 3, on a real Odoo: the duplicates check (server/services/move-duplicates.ts) finds a bill by the file
 * attached to it, Odoo's own `ir.attachment.checksum` being the SHA-1 of the bytes the server computes; by supplier
 * and reference; and by supplier, amount and date; and finds nothing for another document. Live when ODOO_URL is set
 * (ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID), recorded to test/contract/fixtures/odoo<major>-duplicates.json;
 * each recording there is replayed otherwise.
 *
 *   ODOO_URL=http://127.0.0.1:18069 ODOO_DB=bo_dev ODOO_LOGIN=admin ODOO_API_KEY=admin ODOO_COMPANY_ID=1 \
 *     npx vitest run test/server/duplicates-odoo.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErpContext } from '../../server/erp/types';
import { demoPdf } from '../../server/erp/embedded/files';
import { fileChecksum, possibleDuplicates } from '../../server/services/move-duplicates';
import { recordedOdoo, type ContractRecording } from '../contract/recorder';

const live = Boolean(process.env.ODOO_URL);
const fixture = (major: number) => `test/contract/fixtures/odoo${major}-duplicates.json`;
const runs = live ? ['live'] : [16, 17, 18, 19].filter((major) => existsSync(fixture(major))).map(String);

describe.runIf(runs.length)('The duplicates check on a real Odoo: by its attachment checksum, by reference, by amount and date (issue 33)', () => {
  afterEach(() => vi.useRealTimers());

  it.each(runs)('Odoo %s', { timeout: 300_000 }, async (run) => {
    const recording = run === 'live' ? undefined : (JSON.parse(readFileSync(fixture(Number(run)), 'utf8')) as ContractRecording);
    const { erp, today, tag, connection, recorder, replay } = recordedOdoo(recording, new Set(), 'DUP');
    const companyId = connection.companyId;
    const major = await erp.version();
    const context = { allowed_company_ids: [companyId] } as ErpContext;
    const partner = await erp.create('res.partner', { name: `Proveedor ${tag}`, is_company: true }, context);
    const bill = await erp.create(
      'account.move',
      { move_type: 'in_invoice', partner_id: partner, company_id: companyId, ref: `${tag}-A`, invoice_date: today, invoice_line_ids: [[0, 0, { name: tag, quantity: 1, price_unit: 121 }]] },
      context,
    );
    const [{ amount_total: total }] = await erp.read('account.move', [bill], ['amount_total']);
    const file = demoPdf([`Factura ${tag}`, 'Total 121,00 EUR']);
    await erp.create('ir.attachment', { name: `${tag}.pdf`, datas: file.toString('base64'), res_model: 'account.move', res_id: bill, mimetype: 'application/pdf' }, context);

    // The same file sent again, for another supplier and amount: found by Odoo's checksum of its bytes alone.
    const other = await erp.create('res.partner', { name: `Otro ${tag}`, is_company: true }, context);
    const sameFile = await possibleDuplicates(erp, companyId, { checksum: fileChecksum(file), partnerId: other, reference: 'Otra cosa', amount: 5, date: today });
    expect(sameFile.map((one) => [one.move.id, one.reasons])).toEqual([[bill, ['file']]]);
    // Another photo of it: the same supplier and reference, the same amount and date.
    const retyped = await possibleDuplicates(erp, companyId, { checksum: fileChecksum(Buffer.from(`otra foto ${tag}`)), partnerId: partner, reference: ` ${tag}-A `, amount: Number(total), date: today });
    expect(retyped.map((one) => [one.move.id, one.reasons])).toEqual([[bill, ['reference', 'amount']]]);
    // Another document of the same supplier: nothing.
    expect(await possibleDuplicates(erp, companyId, { checksum: fileChecksum(Buffer.from(`otro ${tag}`)), partnerId: partner, reference: `${tag}-B`, amount: Number(total) + 1, date: today })).toEqual([]);

    if (replay) expect(replay.unmatched).toEqual([]);
    if (recorder) {
      const recordingOut: ContractRecording = {
        description: "A bill with its file attached; the duplicates check by the file's checksum, by supplier and reference, by supplier, amount and date, and for another document",
        recordedAt: today,
        tag,
        odoo: { ...connection, serverVersion: String(major) },
        exchanges: recorder.exchanges,
        observations: { sameFile: sameFile.map((one) => one.reasons), retyped: retyped.map((one) => one.reasons) },
      };
      writeFileSync(fixture(major), `${JSON.stringify(recordingOut, null, 1)}\n`);
    }
  });
});
