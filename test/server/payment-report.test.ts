/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers and spreadsheet cells are read field by field */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let smtp: SMTPServer;
const received: Array<{ envelopeTo: string[]; raw: Buffer }> = [];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ envelopeTo: session.envelope.rcptTo.map((one) => one.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  server = await startTestServer({ seedErp: true, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  for (const who of ['manager', 'staff', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

async function call(who: string, body: unknown) {
  const response = await fetch(`${server.url}/odoo/reports/payment`, {
    method: 'POST',
    headers: { authorization: tokens[who], 'content-type': 'application/json', 'accept-language': 'es-ES' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The PMP of company 1 computed here from the ERP's records, independently of the server's code. */
async function expectedFor(companyId: number, from: string, to: string) {
  const erp = server.app.services.erp.client;
  const moves = await erp.searchRead('account.move', [['company_id', '=', companyId], ['move_type', 'in', ['in_invoice', 'in_receipt', 'in_refund']], ['state', '=', 'posted']], { fields: ['invoice_date', 'amount_total'] });
  const payments = await erp.searchRead('account.payment', [['move_id', 'in', moves.map((move) => move.id)], ['state', '=', 'posted']], { fields: ['move_id', 'date', 'amount'] });
  let paid = 0;
  let paidDays = 0;
  let pending = 0;
  let pendingDays = 0;
  for (const move of moves) {
    const payment = payments.find((one) => (one.move_id as [number, string])[0] === move.id && String(one.date) <= to);
    const total = Number(move.amount_total);
    if (payment && String(payment.date) >= from) {
      paid += total;
      paidDays += total * days(String(move.invoice_date), String(payment.date));
    } else if (!payment) {
      pending += total;
      pendingDays += total * days(String(move.invoice_date), to);
    }
  }
  const round = (value: number) => Math.round(value * 100) / 100;
  return { paid: round(paid), pending: round(pending), pmp: round((paidDays + pendingDays) / (paid + pending)), paidRatio: round(paidDays / paid) };
}

describe('POST /odoo/reports/payment', () => {
  it('answers at once, then mails the summary and the spreadsheet through a real SMTP conversation', async () => {
    const from = day(-365);
    const to = day(0);
    const answer = await call('manager', { dateFrom: from, dateTo: to, companies: [{ id: 1, name: 'Acme Iberia SL' }, { id: 3, name: 'Cumbre Digital SL' }] });
    expect(answer.status).toBe(202);
    expect(answer.body.message).toBe('The report is being generated. You will receive the results by email');
    await server.app.services.reports.idle();
    expect(received).toHaveLength(1);
    expect(received[0].envelopeTo).toEqual(['manager@demo.example']);
    const mail: ParsedMail = await simpleParser(received[0].raw);
    // Days, numbers and money as Spanish writes them (issue 16): 20/11/2026, 36,78 días, 2.779,00 €.
    const dmy = (iso: string) => iso.split('-').reverse().join('/');
    const es = (value: number) => new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' } as Intl.NumberFormatOptions).format(value);
    expect(mail.subject).toBe(`Periodo medio de pago a proveedores del ${dmy(from)} al ${dmy(to)}`);
    const expected = await expectedFor(1, from, to);
    expect(mail.text).toContain(`- Acme Iberia SL: PMP ${es(expected.pmp)} días (pagado ${es(expected.paid)} € a ${es(expected.paidRatio)} días; pendiente ${es(expected.pending)} € a `);
    expect(mail.text).toContain('- Cumbre Digital SL: PMP');
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment.filename).toBe(`pmp-${from}-${to}.xlsx`);
    expect(attachment.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(attachment.content as unknown as ArrayBuffer);
    const summary = workbook.getWorksheet('Resumen')!;
    const header = summary.getRow(1).values as unknown[];
    expect(header).toContain('PMP (días)');
    const acme = (summary.getRow(2).values as unknown[]).slice(1);
    expect(acme[0]).toBe('Acme Iberia SL');
    // Days are dates and amounts carry their currency, shown in the reader's own separators.
    expect(acme[1]).toEqual(new Date(`${from}T00:00:00Z`));
    expect(summary.getRow(2).getCell(2).numFmt).toBe('dd/mm/yyyy');
    expect(summary.getRow(2).getCell(4).numFmt).toBe('#,##0.00 "€"');
    expect([acme[3], acme[4], acme[5], acme[7]]).toEqual([expected.paid, expected.paidRatio, expected.pending, expected.pmp]);
    const invoices = workbook.getWorksheet('Facturas')!;
    const acmeRows = invoices.getRows(2, invoices.rowCount - 1)!.filter((row) => row.getCell(1).value === 'Acme Iberia SL');
    const sum = (kind: string) => Math.round(acmeRows.filter((row) => row.getCell(5).value === kind).reduce((total, row) => total + Number(row.getCell(7).value), 0) * 100) / 100;
    expect(sum('pagado')).toBe(expected.paid);
    expect(sum('pendiente')).toBe(expected.pending);
  });

  it('says plainly when a period has no invoices', async () => {
    received.length = 0;
    expect((await call('manager', { dateFrom: '2001-01-01', dateTo: '2001-12-31', companies: [2], lang: 'en' })).status).toBe(202);
    await server.app.services.reports.idle();
    const mail = await simpleParser(received[0].raw);
    expect(mail.subject).toBe('Average payment period to suppliers from 01/01/2001 to 31/12/2001');
    expect(mail.text).toContain('- Beta Servicios SA: no supplier invoices in the period; there is no PMP to compute.');
  });

  it('refuses bad input, other companies and a missing permission, sending nothing', async () => {
    received.length = 0;
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['manager', { dateFrom: '2026-12-31', dateTo: '2026-01-01', companies: [1] }, 400, /^La fecha de inicio no puede ser posterior a la fecha de fin$/],
      ['manager', { dateFrom: '2026-01-01', dateTo: '31/12/2026', companies: [1] }, 400, /^Fecha hasta: /],
      ['manager', { dateFrom: '2010-01-01', dateTo: '2026-01-01', companies: [1] }, 400, /^El periodo puede ser como máximo de cinco años$/],
      ['manager', { dateFrom: '2026-01-01', dateTo: '2026-12-31', companies: [] }, 400, /^Empresas: debe tener al menos 1 elemento$/],
      ['sales', { dateFrom: '2026-01-01', dateTo: '2026-12-31', companies: [1] }, 403, /./],
      ['staff', { dateFrom: '2026-01-01', dateTo: '2026-12-31', companies: [1] }, 403, /./],
      ['manager', '{"dateFrom":', 400, /./],
    ];
    for (const [who, body, status, message] of cases) {
      const answer = await call(who, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.message, JSON.stringify(body)).toMatch(message);
    }
    await server.app.services.reports.idle();
    expect(received).toHaveLength(0);
  });

  it('writes the mail to DATA_DIR/outbox without an SMTP server', async () => {
    const plain = await startTestServer({ seedErp: true });
    try {
      const token = await plain.tokenFor('manager@demo.example');
      const answer = await fetch(`${plain.url}/odoo/reports/payment`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ dateFrom: day(-365), dateTo: day(0), companies: [1] }),
      });
      expect(answer.status).toBe(202);
      await plain.app.services.reports.idle();
      const outbox = join(plain.app.services.config.dataDir, 'outbox');
      const files = readdirSync(outbox);
      expect(files).toHaveLength(1);
      const mail = await simpleParser(readFileSync(join(outbox, files[0])));
      expect((mail.to as { text: string }).text).toBe('manager@demo.example');
      expect(mail.attachments[0].filename).toMatch(/^pmp-.*\.xlsx$/);
    } finally {
      await plain.stop();
    }
  });
});
