/**
 * A bare e-invoice XML made readable (issue 55): a PDF of what it says (issuer, buyer, dates, lines, taxes, totals),
 * in the uploader's language, carrying the XML byte for byte as its embedded file, as a Factur-X PDF carries its CII.
 * The bill's one attachment is then a document a person reads in any viewer (and the validation view shows inline),
 * and the exact XML a program (or this reader) takes back out of it, its signature intact.
 *
 * Deterministic: the same XML renders the same bytes (its dates from the invoice, no clock), so that a document sent
 * twice is found the same file by the duplicate check.
 */
import type { EInvoice } from '../../shared/domain/einvoice';
import { formatMoney } from '../../shared/domain/money';
import { formatNumber } from '../../shared/domain/numbers';

const LABELS = {
  es: {
    invoice: 'Factura', creditNote: 'Abono (factura rectificativa)', seller: 'Emisor', buyer: 'Destinatario', issued: 'Fecha de expedición', due: 'Vencimiento',
    description: 'Descripción', quantity: 'Cantidad', unitPrice: 'Precio', rate: 'IVA', amount: 'Importe', taxes: 'Impuestos', base: 'Base',
    net: 'Base imponible', tax: 'Impuestos', withheld: 'Retenciones', allowances: 'Descuentos', charges: 'Cargos', total: 'Total', source: 'Representación legible de la factura electrónica %{label}; el XML original va adjunto a este PDF (%{name}).',
  },
  en: {
    invoice: 'Invoice', creditNote: 'Credit note (corrective invoice)', seller: 'Issuer', buyer: 'Buyer', issued: 'Issue date', due: 'Due date',
    description: 'Description', quantity: 'Quantity', unitPrice: 'Price', rate: 'VAT', amount: 'Amount', taxes: 'Taxes', base: 'Base',
    net: 'Net amount', tax: 'Taxes', withheld: 'Withheld', allowances: 'Allowances', charges: 'Charges', total: 'Total', source: 'Readable rendering of the %{label} e-invoice; the original XML is attached to this PDF (%{name}).',
  },
} as const;

/** The PDF of `invoice`, with `xml` (its source, named `name`) embedded; `locale` the uploader's language. */
export async function renderEInvoicePdf(invoice: EInvoice, xml: Buffer, name: string, locale: 'es' | 'en' = 'es'): Promise<Buffer> {
  const text = LABELS[locale];
  const day = (iso?: string) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '');
  const money = (amount: number) => formatMoney(amount, invoice.currency, locale);
  // A unit price may have more than cents (45.125): written with them all, not rounded.
  const price = (amount: number) => (Math.round(amount * 100) === amount * 100 ? money(amount) : `${formatNumber(amount, locale, { minDecimals: 2, maxDecimals: 6 })} ${invoice.currency}`);
  const created = new Date(`${invoice.issueDate}T00:00:00Z`);
  // Loaded when a PDF is made, not when the server starts.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${text.invoice} ${invoice.number}`, Author: invoice.seller.name, CreationDate: created, ModDate: created } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font('Helvetica-Bold').fontSize(16).text(`${invoice.kind === 'creditNote' ? text.creditNote : text.invoice} ${invoice.number}`, left, 50, { width });
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  const party = (label: string, one: { name?: string; vat?: string; address?: { street: string; city: string; postalCode: string; country: string } }) => {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text([one.name, one.vat].filter(Boolean).join(' · ') || '—');
    if (one.address) doc.text([one.address.street, [one.address.postalCode, one.address.city].filter(Boolean).join(' '), one.address.country].filter(Boolean).join(', '));
  };
  party(text.seller, invoice.seller);
  party(text.buyer, invoice.buyer);
  doc.font('Helvetica-Bold').text(`${text.issued}: `, { continued: true }).font('Helvetica').text(day(invoice.issueDate));
  if (invoice.dueDate) doc.font('Helvetica-Bold').text(`${text.due}: `, { continued: true }).font('Helvetica').text(day(invoice.dueDate));
  doc.moveDown();

  // The lines: description, quantity, price, VAT, amount.
  const columns: Array<[string, number, 'left' | 'right']> = [[text.description, 0.46, 'left'], [text.quantity, 0.12, 'right'], [text.unitPrice, 0.14, 'right'], [text.rate, 0.1, 'right'], [text.amount, 0.18, 'right']];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    let x = left;
    let bottom = y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    cells.forEach((cell, index) => {
      const [, share, align] = columns[index];
      doc.text(cell, x, y, { width: share * width - 4, align });
      bottom = Math.max(bottom, doc.y);
      x += share * width;
    });
    doc.y = bottom + 3;
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
  };
  row(columns.map(([label]) => label), true);
  for (const line of invoice.lines) {
    row([line.description, formatNumber(line.quantity, locale, { maxDecimals: 4 }), price(line.unitPrice), line.taxRate === undefined ? '' : `${formatNumber(line.taxRate, locale, { maxDecimals: 2 })} %`, money(line.net)]);
  }
  doc.moveDown();
  for (const tax of invoice.taxes) row([`${text.taxes} ${tax.category ?? ''} ${formatNumber(tax.rate, locale, { maxDecimals: 2 })} %`.replace(/\s+/g, ' '), '', text.base, money(tax.base), money(tax.amount)]);
  const totals: Array<[string, number | undefined]> = [[text.allowances, invoice.totals.allowances ? -invoice.totals.allowances : undefined], [text.charges, invoice.totals.charges || undefined], [text.net, invoice.totals.net], [text.tax, invoice.totals.tax], [text.withheld, invoice.totals.withheld || undefined], [text.total, invoice.totals.total]];
  for (const [label, amount] of totals) if (amount !== undefined) row([label, '', '', '', money(amount)], label === text.total);
  doc.moveDown(2).font('Helvetica').fontSize(8).fillColor('#555').text(text.source.replace('%{label}', invoice.label).replace('%{name}', name), left, doc.y, { width });
  doc.file(xml, { name, type: 'application/xml', description: invoice.label, creationDate: created, modifiedDate: created });
  doc.end();
  return ended;
}
