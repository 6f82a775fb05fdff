/**
 * Issue 55 on the Move page: an e-invoice chosen (an XML, or a PDF carrying one) is read at once, without the AI
 * button; the form fills with its values, says "Leído de la factura electrónica (FacturaE 3.2.2)" instead of "check
 * it", shows the invoice (a bare XML has no page) and what could be checked; what did not check out is a warning,
 * never a block. A PDF without an XML inside waits for the button as before.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { EInvoiceReading } from '../../shared/domain/einvoice';
import { MovePage } from '../../src/resources/moves/MovePage';
import { renderInAdmin, serveDuringTests } from './admin';

const asked: Array<Record<string, unknown>> = [];
const created: Array<Record<string, unknown>> = [];
const facturae: EInvoiceReading = {
  format: 'facturae',
  version: '3.2.2',
  label: 'FacturaE 3.2.2',
  kind: 'invoice',
  number: 'FA2026-0042',
  issueDate: '2026-11-02',
  currency: 'EUR',
  seller: { name: 'Suministros Peñalara SL', vat: 'ESB12345674', address: { street: 'Calle Mayor 12', city: 'Zaragoza', postalCode: '50001', country: 'ES' } },
  buyer: { name: 'Acme Iberia SL', vat: 'ESA87654321' },
  lines: [
    { description: 'Papel A4 80 g', quantity: 4, unitPrice: 18.5, net: 74, taxRate: 21 },
    { description: 'Tóner negro', quantity: 2, unitPrice: 463, net: 926, taxRate: 21 },
  ],
  taxes: [{ rate: 21, base: 1000, amount: 210 }],
  totals: { net: 1000, tax: 210, total: 1210 },
  checks: { totals: [], schema: { valid: true, errors: [] }, signature: { status: 'valid', signer: 'MARÍA LÓPEZ GARCÍA, Suministros Peñalara SL', issuer: 'Suministros Peñalara SL' }, buyer: 'ours' },
};
let answer: EInvoiceReading = facturae;

const server = setupServer(
  http.get('*/odoo/companies', () =>
    HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] }),
  ),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }])),
  http.post('*/odoo/providers/search', () => HttpResponse.json([])),
  http.post('*/odoo/providers/create', async ({ request }) => {
    created.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ id: 9, name: 'Suministros Peñalara SL', vat: 'ESB12345674' }, { status: 201 });
  }),
  http.post('*/ocr/move/', async ({ request }) => {
    asked.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ result: JSON.stringify({ importe: answer.totals.total.toFixed(2), date: answer.issueDate, provider: answer.seller.name, vat: answer.seller.vat, concept: answer.number, einvoice: answer }) });
  }),
);
serveDuringTests(server, () => {
  localStorage.clear();
  asked.length = 0;
  created.length = 0;
  answer = facturae;
});

async function choose(file: File, lang: 'es' | 'en' = 'es') {
  renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: lang === 'es' ? /Empresa/ : /Company/ }));
  fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
  await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).disabled).toBe(false));
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [file] } });
}

const xml = (name = 'FA2026-0042.xsig') => new File(['<?xml version="1.0" encoding="UTF-8"?><fe:Facturae/>'], name, { type: '' });

describe('an e-invoice on the Move page (issue 55)', () => {
  it('is read as soon as it is chosen: the form fills, says where from, shows the invoice and its checks', async () => {
    await choose(xml());
    const summary = await screen.findByTestId('einvoice-summary');
    expect(asked).toHaveLength(1);
    expect(String(asked[0].file)).toMatch(/^data:/);
    expect(asked[0].companyId).toBe(1);
    expect(within(summary).getByText('Leído de la factura electrónica (FacturaE 3.2.2)')).toBeTruthy();
    expect(screen.getByTestId('einvoice-identity').textContent).toBe('Factura FA2026-0042 de Suministros Peñalara SL (ESB12345674), total 1.210,00 €');
    expect(screen.getByTestId('einvoice-checks').textContent).toBe('Cumple el esquema oficial · Firmada por MARÍA LÓPEZ GARCÍA, Suministros Peñalara SL · Las cuentas cuadran · El comprador es una de sus empresas');
    expect(screen.getAllByTestId('einvoice-line').map((row) => row.textContent)).toEqual(['Papel A4 80 g474,00 €21 %', 'Tóner negro2926,00 €21 %']);
    expect(screen.queryByTestId('einvoice-warnings')).toBeNull();
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('1.210,00'));
    // Said as read from the e-invoice, not as a reading to check.
    expect(screen.getAllByText('Leído de la factura electrónica').length).toBeGreaterThan(0);
    expect(screen.queryByText('Leído del documento: revíselo')).toBeNull();
    expect(screen.getByTestId('preview-xml').textContent).toContain('no tiene páginas que mostrar');
    // The issuer, no supplier of the company yet, is created with the invoice's name, tax id and address.
    fireEvent.click(await screen.findByTestId('create-supplier'));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toEqual({ companyId: 1, name: 'Suministros Peñalara SL', vat: 'ESB12345674', address: { street: 'Calle Mayor 12', city: 'Zaragoza', postalCode: '50001', country: 'ES' } });
  });

  it('warns, in English, of what did not check out, without blocking anything', async () => {
    answer = {
      ...facturae,
      kind: 'creditNote',
      checks: { totals: [{ key: 'einvoice.totalMismatch', params: { computed: 1210, stated: 1310 } }], schema: { valid: false, errors: ['line 12: Element Foo is not expected'] }, signature: { status: 'invalid', reason: 'altered' }, buyer: 'other' },
    };
    await choose(xml('invoice.xml'), 'en');
    const warnings = await screen.findByTestId('einvoice-warnings');
    expect([...warnings.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      // On the Expenses tab (the form's first): a credit note belongs under Invoices.
      'This is a credit note (a corrective invoice): register it under Invoices, where it is registered as a refund; as an expense it would be positive.',
      'Base and taxes make €1,210.00, but the invoice states a total of €1,310.00.',
      'Not valid against the official schema: line 12: Element Foo is not expected',
      'Invalid signature: the invoice changed after it was signed.',
      'The buyer (Acme Iberia SL, ESA87654321) is none of your companies: check that the invoice is yours.',
    ]);
    expect(screen.getByTestId('einvoice-summary').className).toContain('Warning');
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('1,210.00'));
  });

  it('reads a PDF carrying an XML at once', async () => {
    const facturX = new File(['%PDF-1.7\n1 0 obj << /Type /EmbeddedFile /Subtype /text#2Fxml >> stream\n<rsm:CrossIndustryInvoice/>\nendstream\nendobj\n%%EOF'], 'factura.pdf', { type: 'application/pdf' });
    await choose(facturX);
    await screen.findByTestId('einvoice-summary');
    expect(asked).toHaveLength(1);
  });

  it('does not read a plain PDF by itself: the AI button does, once', async () => {
    answer = { ...facturae, checks: { ...facturae.checks } };
    await choose(new File(['%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF'], 'ticket.pdf', { type: 'application/pdf' }));
    expect(screen.queryByTestId('einvoice-summary')).toBeNull();
    fireEvent.click(await screen.findByTestId('ai-button'));
    await screen.findByTestId('einvoice-summary');
    // One reading: the button's (a reading of its own when chosen would have made two).
    expect(asked).toHaveLength(1);
  });
});
