/**
 * The payment report of spec section 7: for each chosen company, the PMP of the period from the ERP's posted
 * supplier bills, receipts and credit notes and their payments; a spreadsheet with the figures and the rows behind
 * them; a mail to the person who asked.
 */
import type { ErpClient, ErpRecord } from '../erp/types';
import type { MailMessage } from '../mail';
import { formatDay } from '../../shared/domain/format';
import { formatMoney, SYMBOLS as SYMBOL } from '../../shared/domain/money';
import { computePmp, type PmpDocument, type PmpResult } from './pmp';
import { CompanyRefusedError } from '../erp/companies';

export const SUPPLIER_TYPES = ['in_invoice', 'in_receipt', 'in_refund'];
export type ReportLanguage = 'es' | 'en';

export interface CompanyReport {
  /** `currency`: the company's (its amounts are in it), EUR when the ERP does not say. */
  company: { id: number; name: string; currency?: string };
  result: PmpResult;
}

const name = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');
const pairId = (pair: unknown) => Number(Array.isArray(pair) ? pair[0] : pair);

/**
 * Documents and payments as Odoo keeps them: payments are partial reconciliations on the bill's lines
 * (account.partial.reconcile), dated by the payment's own line. The embedded store records an outbound account.payment against the
 * bill instead; both are read, and each back end has only one of them.
 */
export async function loadDocuments(erp: ErpClient, companyId: number, to: string): Promise<PmpDocument[]> {
  const moves = await erp.searchRead(
    'account.move',
    [['company_id', '=', companyId], ['move_type', 'in', SUPPLIER_TYPES], ['state', '=', 'posted'], ['invoice_date', '<=', to]],
    { fields: ['name', 'ref', 'partner_id', 'invoice_date', 'date', 'amount_total', 'amount_total_signed', 'move_type'], order: 'invoice_date, id', limit: 100_000 },
  );
  if (!moves.length) return [];
  const ids = moves.map((move) => move.id);
  const payments = new Map<number, Array<{ date: string; amount: number }>>();
  const add = (moveId: number, date: unknown, amount: unknown) => {
    if (typeof date !== 'string' || !date) return;
    const list = payments.get(moveId) ?? [];
    list.push({ date: date.slice(0, 10), amount: Math.abs(Number(amount) || 0) });
    payments.set(moveId, list);
  };

  const lines = await erp.searchRead('account.move.line', [['move_id', 'in', ids]], { fields: ['move_id'], limit: 1_000_000 });
  if (lines.length) {
    const lineToMove = new Map(lines.map((line) => [line.id, pairId(line.move_id)]));
    const lineIds = [...lineToMove.keys()];
    const reconciles = await erp.searchRead('account.partial.reconcile', ['|', ['credit_move_id', 'in', lineIds], ['debit_move_id', 'in', lineIds]], {
      fields: ['credit_move_id', 'debit_move_id', 'amount', 'max_date'],
      limit: 1_000_000,
    });
    // Each side is dated by its counterpart line, the payment's own date, as Odoo's payment widget shows it
    // (max_date is the later of the two lines: a bill booked after its payment would count the days until booking).
    const counterparts = [...new Set(reconciles.flatMap((reconcile) => [pairId(reconcile.credit_move_id), pairId(reconcile.debit_move_id)]))];
    const lineDates = new Map<number, unknown>();
    for (let start = 0; start < counterparts.length; start += 10_000) {
      const chunk = counterparts.slice(start, start + 10_000);
      for (const line of await erp.read('account.move.line', chunk, ['date'])) lineDates.set(line.id, line.date);
    }
    const dated = (lineId: number, fallback: unknown) => {
      const date = lineDates.get(lineId);
      return typeof date === 'string' && date ? date : fallback;
    };
    for (const reconcile of reconciles) {
      const creditLine = pairId(reconcile.credit_move_id);
      const debitLine = pairId(reconcile.debit_move_id);
      const credit = lineToMove.get(creditLine);
      const debit = lineToMove.get(debitLine);
      // A bill settled by a payment has one side here; a bill netted against a credit note has both: each document
      // then counts the amount as settled on its counterpart's date (the bill as paid, the credit note as
      // refunded), so the two cancel out instead of the credit note staying pending.
      if (credit) add(credit, dated(debitLine, reconcile.max_date), reconcile.amount);
      if (debit && debit !== credit) add(debit, dated(creditLine, reconcile.max_date), reconcile.amount);
    }
  }
  const embedded = await erp
    .searchRead('account.payment', [['move_id', 'in', ids], ['state', '=', 'posted']], { fields: ['move_id', 'date', 'amount'], limit: 1_000_000 })
    .catch(() => [] as ErpRecord[]);
  for (const payment of embedded) add(Array.isArray(payment.move_id) ? Number(payment.move_id[0]) : Number(payment.move_id), payment.date, payment.amount);

  return moves.map((move) => ({
    id: move.id,
    name: String(move.name && move.name !== '/' ? move.name : move.ref || `#${move.id}`),
    partner: name(move.partner_id),
    invoiceDate: String(move.invoice_date || move.date).slice(0, 10),
    // In the company's currency, like the reconciled amounts (amount_total is in the document's own currency).
    total: (move.move_type === 'in_refund' ? -1 : 1) * Math.abs(Number(move.amount_total_signed) || Number(move.amount_total) || 0),
    payments: payments.get(move.id) ?? [],
  }));
}

/** Days with two decimals as the mail's language writes them (36,78 in Spanish). */
function decimal(value: number, lang: ReportLanguage): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' } as Intl.NumberFormatOptions).format(value);
}
/** An amount in the company's currency, as the console writes money (1.234,56 €). */
const amount = (value: number, report: CompanyReport, lang: ReportLanguage) => formatMoney(value, report.company.currency ?? 'EUR', lang);

/** A calendar day as a spreadsheet date (shown dd/mm/yyyy), or the text as it came. */
function sheetDay(value: string): Date | string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : value;
}

const TEXT = {
  es: {
    subject: (from: string, to: string) => `Periodo medio de pago a proveedores del ${formatDay(from)} al ${formatDay(to)}`,
    intro: (from: string, to: string) => `Periodo medio de pago a proveedores (PMP) del ${formatDay(from)} al ${formatDay(to)}, por empresa:`,
    line: (report: CompanyReport) =>
      report.result.pmp === null
        ? `- ${report.company.name}: sin ${report.result.reason === 'no-documents' ? 'facturas de proveedor' : 'importes'} en el periodo; no hay PMP que calcular.`
        : `- ${report.company.name}: PMP ${decimal(report.result.pmp, 'es')} días (pagado ${amount(report.result.totalPaid, report, 'es')} a ${decimal(report.result.paidRatio ?? 0, 'es')} días; pendiente ${amount(report.result.totalPending, report, 'es')} a ${decimal(report.result.pendingRatio ?? 0, 'es')} días).`,
    unreadable: (company: { id: number; name: string }) =>
      `- ${company.name}: no se ha podido leer; el ERP no da acceso al servidor a esta empresa (id ${company.id}). Avise a su administrador.`,
    outro: 'La hoja de cálculo adjunta tiene las cifras y las facturas en que se basan.',
    summary: 'Resumen',
    invoices: 'Facturas',
    headers: ['Empresa', 'Desde', 'Hasta', 'Total pagado', 'Ratio de operaciones pagadas (días)', 'Total pendiente', 'Ratio de operaciones pendientes (días)', 'PMP (días)', 'Pagos dentro del plazo legal (n.º)', 'Importe dentro del plazo legal', '% pagado dentro del plazo', 'Nota'],
    rowHeaders: ['Empresa', 'Documento', 'Proveedor', 'Fecha de factura', 'Tipo', 'Fecha de pago o de cierre', 'Importe', 'Días'],
    paid: 'pagado',
    pending: 'pendiente',
    none: 'Sin facturas de proveedor en el periodo',
    noAmounts: 'Sin importes que promediar',
  },
  en: {
    subject: (from: string, to: string) => `Average payment period to suppliers from ${formatDay(from)} to ${formatDay(to)}`,
    intro: (from: string, to: string) => `Average payment period to suppliers (PMP) from ${formatDay(from)} to ${formatDay(to)}, per company:`,
    line: (report: CompanyReport) =>
      report.result.pmp === null
        ? `- ${report.company.name}: no ${report.result.reason === 'no-documents' ? 'supplier invoices' : 'amounts'} in the period; there is no PMP to compute.`
        : `- ${report.company.name}: PMP ${decimal(report.result.pmp, 'en')} days (paid ${amount(report.result.totalPaid, report, 'en')} at ${decimal(report.result.paidRatio ?? 0, 'en')} days; pending ${amount(report.result.totalPending, report, 'en')} at ${decimal(report.result.pendingRatio ?? 0, 'en')} days).`,
    unreadable: (company: { id: number; name: string }) =>
      `- ${company.name}: could not be read; the ERP does not give the server access to this company (id ${company.id}). Tell your administrator.`,
    outro: 'The attached spreadsheet holds the figures and the invoices behind them.',
    summary: 'Summary',
    invoices: 'Invoices',
    headers: ['Company', 'From', 'To', 'Total paid', 'Paid operations ratio (days)', 'Total pending', 'Pending operations ratio (days)', 'PMP (days)', 'Payments within the legal limit (count)', 'Amount within the legal limit', '% paid within the limit', 'Note'],
    rowHeaders: ['Company', 'Document', 'Supplier', 'Invoice date', 'Kind', 'Payment or closing date', 'Amount', 'Days'],
    paid: 'paid',
    pending: 'pending',
    none: 'No supplier invoices in the period',
    noAmounts: 'No amounts to average',
  },
} as const;

export async function buildWorkbook(reports: CompanyReport[], lang: ReportLanguage): Promise<Buffer> {
  const text = TEXT[lang];
  // Loaded when a workbook is made, not when the server starts (a quarter of a second of a core per start).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Backoffice';
  const summary = workbook.addWorksheet(text.summary);
  summary.addRow([...text.headers]).font = { bold: true };
  for (const { company, result } of reports) {
    summary.addRow([
      company.name, sheetDay(result.from), sheetDay(result.to), result.totalPaid, result.paidRatio, result.totalPending, result.pendingRatio, result.pmp,
      result.withinLimit.count, result.withinLimit.amount, result.withinLimit.percentOfPaid,
      result.pmp === null ? (result.reason === 'no-documents' ? text.none : text.noAmounts) : '',
    ]);
  }
  summary.columns.forEach((column) => (column.width = 20));
  // Days as dates, money with two decimals and its currency, ratios with two decimals: the reader's spreadsheet
  // shows them in its own locale's separators.
  const money = (report: CompanyReport) => `#,##0.00 "${SYMBOL[report.company.currency ?? 'EUR'] ?? report.company.currency}"`;
  reports.forEach((report, index) => {
    const row = summary.getRow(index + 2);
    for (const column of [2, 3]) row.getCell(column).numFmt = 'dd/mm/yyyy';
    for (const column of [4, 6, 10]) row.getCell(column).numFmt = money(report);
    for (const column of [5, 7, 8, 11]) row.getCell(column).numFmt = '0.00';
  });
  const rows = workbook.addWorksheet(text.invoices);
  rows.addRow([...text.rowHeaders]).font = { bold: true };
  for (const { company, result } of reports) {
    for (const row of result.rows) {
      const added = rows.addRow([company.name, row.document, row.partner, sheetDay(row.invoiceDate), row.kind === 'paid' ? text.paid : text.pending, sheetDay(row.date), row.amount, row.days]);
      for (const column of [4, 6]) added.getCell(column).numFmt = 'dd/mm/yyyy';
      added.getCell(7).numFmt = `#,##0.00 "${SYMBOL[company.currency ?? 'EUR'] ?? company.currency}"`;
    }
  }
  rows.columns.forEach((column) => (column.width = 18));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function paymentReportMail(
  to: string,
  period: { from: string; to: string },
  reports: CompanyReport[],
  lang: ReportLanguage,
  unreadable: Array<{ id: number; name: string }> = [],
): Promise<MailMessage> {
  const text = TEXT[lang];
  return {
    to,
    subject: text.subject(period.from, period.to),
    text: [text.intro(period.from, period.to), '', ...reports.map(text.line), ...unreadable.map(text.unreadable), '', text.outro].join('\n'),
    attachments: [
      {
        filename: `pmp-${period.from}-${period.to}.xlsx`,
        content: await buildWorkbook(reports, lang),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    ],
  };
}

export async function runPaymentReport(
  erp: ErpClient,
  request: { email: string; from: string; to: string; companies: Array<{ id: number; name: string }>; unreadable?: Array<{ id: number; name: string }>; lang: ReportLanguage },
): Promise<{ reports: CompanyReport[]; unreadable: Array<{ id: number; name: string }>; mail: MailMessage }> {
  const reports: CompanyReport[] = [];
  const unreadable = [...(request.unreadable ?? [])];
  // Each company's currency, which its amounts are in (EUR when the ERP does not say).
  const currencies = new Map<number, string>();
  const companies = await erp.read('res.company', request.companies.map((company) => company.id), ['currency_id']).catch(() => [] as ErpRecord[]);
  for (const company of companies) if (Array.isArray(company.currency_id)) currencies.set(Number(company.id), String(company.currency_id[1]));
  for (const company of request.companies) {
    let documents: PmpDocument[];
    try {
      documents = await loadDocuments(erp, company.id, request.to);
    } catch (error) {
      // The ERP stopped giving the server this company since the report was asked: named, not reported as empty.
      if (!(error instanceof CompanyRefusedError)) throw error;
      unreadable.push(company);
      continue;
    }
    reports.push({ company: { ...company, currency: currencies.get(company.id) ?? 'EUR' }, result: computePmp(documents, { from: request.from, to: request.to }) });
  }
  return { reports, unreadable, mail: await paymentReportMail(request.email, { from: request.from, to: request.to }, reports, request.lang, unreadable) };
}

export function failureMail(to: string, asked: { from: string; to: string }, lang: ReportLanguage): MailMessage {
  const period = { from: formatDay(asked.from), to: formatDay(asked.to) };
  return lang === 'en'
    ? { to, subject: `Average payment period: the report from ${period.from} to ${period.to} could not be generated`, text: 'The report could not be generated because the ERP did not answer as expected. Please try again later.' }
    : { to, subject: `Periodo medio de pago: no se ha podido generar el informe del ${period.from} al ${period.to}`, text: 'No se ha podido generar el informe porque el ERP no ha respondido como se esperaba. Vuelva a intentarlo más tarde.' };
}
