/**
 * The embedded ERP's sale order report: a real PDF (pdfkit, standard fonts, nothing downloaded) with the company,
 * the customer, the lines with their taxes and the totals, in the reader's language.
 */
import { formatMoney } from '../../shared/domain/money';
import { formatZonedDay } from '../../shared/domain/format';

type Pair = [number, string] | false;
export interface PrintableOrder {
  name: string;
  state: string;
  date_order: string | false;
  partner_id: Pair;
  company_id: Pair;
  client_order_ref: string | false;
  user_id: Pair;
  payment_mode_id: Pair;
  payment_term_id: Pair;
  currency_id: Pair;
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  note: string;
  lines: Array<{ name: string; product_uom_qty: number; product_uom_term: string; price_unit: number; tax_term: string; price_subtotal: number }>;
}

const LABELS = {
  es: {
    quotation: 'Presupuesto', order: 'Pedido de venta', customer: 'Cliente', date: 'Fecha', reference: 'Referencia del cliente',
    salesperson: 'Comercial', paymentTerm: 'Plazo de pago', paymentMode: 'Modo de pago', description: 'Descripción', quantity: 'Cantidad',
    unitPrice: 'Precio unitario', taxes: 'Impuestos', amount: 'Importe', untaxed: 'Base imponible', tax: 'Impuestos', total: 'Total',
    terms: 'Términos y condiciones',
  },
  en: {
    quotation: 'Quotation', order: 'Sales order', customer: 'Customer', date: 'Date', reference: 'Customer reference',
    salesperson: 'Salesperson', paymentTerm: 'Payment terms', paymentMode: 'Payment mode', description: 'Description', quantity: 'Quantity',
    unitPrice: 'Unit price', taxes: 'Taxes', amount: 'Amount', untaxed: 'Untaxed amount', tax: 'Taxes', total: 'Total',
    terms: 'Terms and conditions',
  },
} as const;

const name = (pair: Pair) => (Array.isArray(pair) ? pair[1] : '');

/** `timeZone`: the companies' (TIME_ZONE), where the order's date (a UTC datetime) falls on its calendar day. */
export async function renderOrderPdf(order: PrintableOrder, lang: 'es' | 'en', timeZone = 'Europe/Madrid'): Promise<Buffer> {
  const text = LABELS[lang];
  const currency = name(order.currency_id) || 'EUR';
  const money = (value: number) => formatMoney(Number(value) || 0, currency, lang);
  const quantity = new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'es-ES', { maximumFractionDigits: 3 });
  // Loaded when a PDF is made, not when the server starts.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${order.name}`, Author: name(order.company_id) } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font('Helvetica-Bold').fontSize(16).text(name(order.company_id), left, 50);
  doc.moveDown(1.5);
  const title = order.state === 'draft' || order.state === 'sent' ? text.quotation : text.order;
  doc.fontSize(20).text(`${title} ${order.name}`);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(10);
  const facts: Array<[string, string]> = [
    [text.customer, name(order.partner_id)],
    // dd/mm/aaaa as the console writes days (the order's datetime is UTC: its day in the companies' zone).
    [text.date, formatZonedDay(order.date_order, timeZone)],
    [text.reference, order.client_order_ref || ''],
    [text.salesperson, name(order.user_id)],
    [text.paymentTerm, name(order.payment_term_id)],
    [text.paymentMode, name(order.payment_mode_id)],
  ];
  for (const [label, value] of facts.filter(([, value]) => value)) {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  }
  doc.moveDown(1);

  // Columns: description, quantity, unit price, taxes, amount.
  const columns = [
    { label: text.description, width: width * 0.38, align: 'left' as const },
    { label: text.quantity, width: width * 0.12, align: 'right' as const },
    { label: text.unitPrice, width: width * 0.16, align: 'right' as const },
    { label: text.taxes, width: width * 0.16, align: 'left' as const },
    { label: text.amount, width: width * 0.18, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    const top = doc.y;
    let x = left;
    let bottom = top;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    cells.forEach((cell, index) => {
      const column = columns[index];
      doc.text(cell, x + 2, top, { width: column.width - 4, align: column.align });
      bottom = Math.max(bottom, doc.y);
      x += column.width;
    });
    doc.y = bottom + 4;
    if (doc.y > doc.page.height - 120) doc.addPage();
  };
  row(columns.map((column) => column.label), true);
  doc.moveTo(left, doc.y - 2).lineTo(left + width, doc.y - 2).stroke();
  for (const line of order.lines) {
    row([
      line.name,
      `${quantity.format(Number(line.product_uom_qty) || 0)} ${line.product_uom_term || ''}`.trim(),
      money(line.price_unit),
      line.tax_term || '',
      money(line.price_subtotal),
    ]);
  }
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.moveDown(0.5);

  const totals: Array<[string, string, boolean]> = [
    [text.untaxed, money(order.amount_untaxed), false],
    [text.tax, money(order.amount_tax), false],
    [text.total, money(order.amount_total), true],
  ];
  for (const [label, value, bold] of totals) {
    const top = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10);
    doc.text(label, left + width * 0.5, top, { width: width * 0.3, align: 'right' });
    doc.text(value, left + width * 0.8, top, { width: width * 0.2, align: 'right' });
    doc.moveDown(0.3);
  }
  if (order.note) {
    doc.moveDown(1.5);
    doc.font('Helvetica-Bold').fontSize(10).text(text.terms, left, doc.y, { width });
    doc.font('Helvetica').fontSize(9).text(order.note, { width });
  }
  doc.end();
  return done;
}
