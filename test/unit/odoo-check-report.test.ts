import { describe, expect, it } from 'vitest';
import { featuresFrom, isMissingModelError } from '../../server/erp/features';
import { formatReport, hasMissing, type CheckReport } from '../../server/erp/odoo/check';
import { ErpError } from '../../server/erp/types';

describe('missing models', () => {
  it("reads Odoo's UserError in English or Spanish and the embedded store's error as an absent model, nothing else", () => {
    expect(isMissingModelError(new ErpError('user', "Object x_tipo_inversor doesn't exist"))).toBe(true);
    expect(isMissingModelError(new ErpError('user', 'El objeto x_tipo_inversor no existe'))).toBe(true);
    expect(isMissingModelError(new ErpError('validation', "Unknown model 'x_tipo_inversor'"))).toBe(true);
    expect(isMissingModelError(new ErpError('validation', "Invalid field 'payment_mode_id' on model 'sale.order'"))).toBe(false);
    expect(isMissingModelError(new ErpError('unavailable', 'ERP unavailable'))).toBe(false);
    expect(isMissingModelError(new ErpError('access', "Object x doesn't exist"))).toBe(false);
    expect(isMissingModelError(new Error("Object x doesn't exist"))).toBe(false);
  });

  it('needs every listed model and field for a feature', () => {
    const features = featuresFrom({
      'account.payment.mode': { id: { type: 'integer' } },
      'sale.order': { payment_mode_id: { type: 'many2one', relation: 'account.payment.mode' }, margin: { type: 'monetary' } },
      'account.move': {},
      x_tipo_inversor: null,
    });
    expect(features).toMatchObject({ paymentModes: false, orderMargins: true, investorTypes: false, events: false });
  });
});

describe('the report for a terminal', () => {
  const report = (items: CheckReport['items'], notes: string[] = []): CheckReport => ({ target: 'https://odoo.example.com (database prod)', reachable: true, items, notes });

  it('one line per check, the fix indented below what is not ok, notes, then the count', () => {
    const text = formatReport(
      report(
        [
          { feature: 'Odoo', status: 'ok', details: ['Odoo 17.0'], fix: '' },
          { feature: 'Order margins', status: 'degraded', details: ['lacking: sale.order.margin'], fix: 'Install Sales margin (sale_margin)' },
          { feature: 'Acme: invoices journal', status: 'missing', details: ['no journal set'], fix: 'Set a purchase journal in Settings > Companies > Acme > Backoffice (x_facturas_journal_id)' },
        ],
        ['Employees not checked: no accounts'],
      ),
    );
    expect(text).toBe(
      [
        'Odoo check of https://odoo.example.com (database prod)',
        'OK       Odoo: Odoo 17.0',
        'DEGRADED Order margins: lacking: sale.order.margin',
        '         Fix: Install Sales margin (sale_margin)',
        'MISSING  Acme: invoices journal: no journal set',
        '         Fix: Set a purchase journal in Settings > Companies > Acme > Backoffice (x_facturas_journal_id)',
        'Note: Employees not checked: no accounts',
        '1 missing, 1 degraded',
      ].join('\n'),
    );
  });

  it('says "Nothing missing" when all is ok; only missing items (or no Odoo) make the check fail', () => {
    const ok = report([{ feature: 'Odoo', status: 'ok', details: ['Odoo 17.0'], fix: '' }]);
    expect(formatReport(ok).split('\n').at(-1)).toBe('Nothing missing');
    expect(hasMissing(ok)).toBe(false);
    expect(hasMissing(report([{ feature: 'Order margins', status: 'degraded', details: [], fix: 'x' }]))).toBe(false);
    expect(hasMissing({ ...ok, reachable: false })).toBe(true);
  });
});
