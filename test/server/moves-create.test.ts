import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf, demoPng } from '../../server/erp/embedded/files';
import { ErpError, type ErpClient } from '../../server/erp/types';
import { blankPng } from '../support/bombs';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let failing: TestServer;
let refusing: TestServer;
const tokens: Record<string, string> = {};
const today = new Date().toISOString().slice(0, 10);
const pdf = `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 23,40 EUR']).toString('base64')}`;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  // The same server whose ERP fails when the attachment is stored, after the move was created: an ERP whose connector
  // predates the one-call methods (their field hidden), so the bill is written in several calls.
  failing = await startTestServer({
    seedErp: true,
    wrapErp: (client: ErpClient) =>
      new Proxy(client, {
        get(target, property, receiver) {
          if (property === 'create') {
            return async (model: string, values: Record<string, unknown>) => {
              if (model === 'ir.attachment') throw new ErpError('unavailable', 'ERP unavailable');
              return target.create(model, values);
            };
          }
          if (property === 'call') {
            return async (model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>) => {
              const answer = await target.call<Record<string, unknown>>(model, method, ids, args, kwargs);
              if (method === 'fields_get' && model === 'account.move') delete answer.x_backoffice_one_call;
              return answer;
            };
          }
          return Reflect.get(target, property, receiver);
        },
      }),
  });
  // With the one-call method, the attachment refused inside it (a field the ERP does not have): its transaction
  // takes the move back with it.
  refusing = await startTestServer({
    seedErp: true,
    wrapErp: (client: ErpClient) =>
      new Proxy(client, {
        get(target, property, receiver) {
          if (property === 'call') {
            return async (model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>) => {
              const changed = method === 'backoffice_create_bill' ? { ...kwargs, attachment: { ...(kwargs?.attachment as object), x_not_a_field: 1 } } : kwargs;
              return target.call(model, method, ids, args, changed);
            };
          }
          return Reflect.get(target, property, receiver);
        },
      }),
  });
  for (const who of ['staff', 'sales', 'manager']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
  tokens.failingStaff = await failing.tokenFor('staff@demo.example');
  tokens.refusingStaff = await refusing.tokenFor('staff@demo.example');
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await failing?.stop();
  await refusing?.stop();
});

async function create(body: unknown, who = 'staff', target = server) {
  const response = await fetch(`${target.url}/odoo/moves/create`, {
    method: 'POST',
    headers: { authorization: tokens[who], 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const moveCount = (target = server) => target.app.services.erp.client.searchCount('account.move', []);

const expense = {
  type: 'expense',
  company_id: 1,
  partner_id: 1,
  date: today,
  amount: 23.4,
  concept: 'Taxi aeropuerto',
  description: 'Taxi aeropuerto',
  comment: 'Vuelta de la feria',
  paymentMethod: 'corporate_card',
  file: { name: 'taxi.pdf', data: pdf },
};

/** The codes of the accounts the lines book to. */
async function accountCodes(lineIds: number[]): Promise<string[]> {
  const erp = server.app.services.erp.client;
  const lines = await erp.read('account.move.line', lineIds, ['account_id']);
  const accounts = await erp.read('account.account', lines.map((line) => (line.account_id as [number, string])[0]), ['code']);
  return accounts.map((account) => String(account.code));
}

describe('POST /odoo/moves/create', () => {
  it('refuses an attached picture of more than 50 megapixels from its header, without decoding it, and stores nothing', async () => {
    const before = await moveCount();
    const bomb = await blankPng(20_000, 20_000);
    const refused = await create({ ...expense, file: { name: 'bomb.png', data: bomb.toString('base64') } });
    expect(refused).toEqual({
      status: 422,
      body: expect.objectContaining({ message: 'The image is 20000 x 20000 pixels (400 megapixels): at most 50 megapixels can be read; send a smaller photo' }),
    });
    expect(await moveCount()).toBe(before);
  });

  it('registers an expense as a receipt in the company expenses journal with its PDF', async () => {
    const created = await create(expense);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'expense', state: 'draft', ref: 'Taxi aeropuerto', amount_total: 23.4, date: today, uploadedBy: 'staff@demo.example', comment: 'Vuelta de la feria', company_id: [1, 'Acme Iberia SL'] });
    const [move] = await server.app.services.erp.client.read('account.move', [created.body.id], ['move_type', 'journal_id', 'x_payment_method', 'invoice_line_ids']);
    expect(move.move_type).toBe('in_receipt');
    expect((move.journal_id as [number, string])[1]).toBe('Gastos y dietas');
    expect(move.x_payment_method).toBe('corporate_card');
    expect(await accountCodes(move.invoice_line_ids as number[])).toEqual(['629000']);
    // The uploader's comment opens the move's conversation, by the uploader.
    const notes = await server.app.services.erp.client.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', created.body.id]], { fields: ['body', 'message_type', 'email_from', 'author_id'] });
    expect(notes).toEqual([expect.objectContaining({ body: 'Vuelta de la feria', message_type: 'comment' })]);
    expect(notes[0].author_id || notes[0].email_from).toBeTruthy();
    const files = await fetch(`${server.url}/odoo/moves/attachments?attachmentIds=${created.body.attachment_ids[0]}`, { headers: { authorization: tokens.staff } });
    const [file] = await files.json();
    expect(file).toMatchObject({ name: 'taxi.pdf', mimetype: 'application/pdf' });
    expect(Buffer.from(file.datas, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("uses the project's own account when the project has settings", async () => {
    const companies = await (await fetch(`${server.url}/odoo/companies`, { headers: { authorization: tokens.staff } })).json();
    const project = companies.data[0].projects.find((one: { gastos: { account: string } }) => one.gastos.account === '629100');
    const created = await create({ ...expense, project: { id: project.id, expenses: project.gastos } });
    const [move] = await server.app.services.erp.client.read('account.move', [created.body.id], ['invoice_line_ids', 'project_id']);
    expect((move.project_id as [number, string])[0]).toBe(project.id);
    expect(await accountCodes(move.invoice_line_ids as number[])).toEqual(['629100']);
  });

  it('registers an invoice from a large photo, compressed, paid by default', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 1600 * 1200 * 3 }, (_, i) => (i * 2654435761) % 251)), { raw: { width: 1600, height: 1200, channels: 3 } })
      .resize(3200, 2400)
      .jpeg({ quality: 98 })
      .toBuffer();
    const created = await create({ ...expense, type: 'invoice', paymentMethod: undefined, file: { name: 'factura.jpeg', data: `data:image/jpeg;base64,${noise.toString('base64')}` } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'invoice', paymentStatus: 'paid' });
    const [file] = await server.app.services.erp.client.read('ir.attachment', created.body.attachment_ids, ['mimetype', 'file_size', 'name']);
    expect(file.mimetype).toBe('image/jpeg');
    expect(file.file_size as number).toBeLessThan(noise.length);
    const stored = await sharp(Buffer.from(String((await server.app.services.erp.client.read('ir.attachment', created.body.attachment_ids, ['datas']))[0].datas), 'base64')).metadata();
    expect(Math.max(stored.width!, stored.height!)).toBe(2200);
    const unpaid = await create({ ...expense, type: 'invoice', paymentStatus: 'unpaid', file: { name: 'f.png', data: demoPng().toString('base64') } });
    expect(unpaid.body.paymentStatus).toBe('unpaid');
  });

  it('refuses bad input with a clear 4xx and creates nothing', async () => {
    const before = await moveCount();
    const bigPdf = `data:application/pdf;base64,${Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(6 * 1024 * 1024, 32)]).toString('base64')}`;
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ ...expense, paymentMethod: undefined }, 400, 'The payment method is required'],
      [{ ...expense, date: '2020-01-01' }, 400, 'Incorrect expense/subsistence or invoice date, please check the date entered'],
      [{ ...expense, date: '2026-02-30' }, 400, /date/],
      [{ ...expense, amount: '23,40' }, 400, /amount/],
      [{ ...expense, amount: -5 }, 400, /amount/],
      [{ ...expense, company_id: 2 }, 403, 'You do not have access to this company'],
      [{ ...expense, partner_id: 999999 }, 400, /Supplier/],
      [{ ...expense, project: 999 }, 400, /Project/],
      [{ ...expense, file: undefined }, 400, /file/i],
      [{ ...expense, file: { name: 'x.pdf', data: 'data:application/pdf;base64,' } }, 400, /empty/],
      [{ ...expense, file: { name: 'x.gif', data: Buffer.from('GIF89a....').toString('base64') } }, 415, 'Failed to load file. Unsupported file format or file corrupted.'],
      [{ ...expense, file: { name: 'x.png', data: Buffer.concat([demoPng().subarray(0, 40), Buffer.from('garbage')]).toString('base64') } }, 400, 'Failed to load file. Unsupported file format or file corrupted.'],
      [{ ...expense, file: { name: 'x.pdf', data: '%%%not base64%%%' } }, 400, /base64/],
      [{ ...expense, file: { name: 'big.pdf', data: bigPdf } }, 413, '[Error] File too large'],
      [{ ...expense, type: 'gift' }, 400, /type/],
    ];
    for (const [body, status, message] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (typeof message === 'string') expect(response.body.message).toBe(message);
      else expect(response.body.message).toMatch(message);
    }
    expect((await create(expense, 'sales')).status).toBe(403);
    expect(await moveCount()).toBe(before);
  });

  it("refuses an account code the company's chart does not have, naming it, and creates nothing", async () => {
    const erp = server.app.services.erp.client;
    const [company] = await erp.read('res.company', [1], ['x_gastos_account']);
    await erp.write('res.company', [1], { x_gastos_account: '999999' });
    try {
      const before = await erp.searchCount('account.move', []);
      const refused = await create(expense);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('The account 999999 does not exist in the chart of accounts of Acme Iberia SL');
      expect(await erp.searchCount('account.move', [])).toBe(before);
    } finally {
      await erp.write('res.company', [1], { x_gastos_account: company.x_gastos_account });
    }
  });

  it('leaves nothing behind when the ERP fails in the middle of a creation', async () => {
    const before = await moveCount(failing);
    const response = await create(expense, 'failingStaff', failing);
    expect(response).toMatchObject({ status: 503, body: { message: 'ERP unavailable' } });
    expect(await moveCount(failing)).toBe(before);
  });

  it('with the one-call method, a bill whose file the ERP refuses leaves no move: one transaction', async () => {
    const before = await moveCount(refusing);
    const attachments = await refusing.app.services.erp.client.searchCount('ir.attachment', []);
    const response = await create(expense, 'refusingStaff', refusing);
    expect(response.status).toBe(400);
    expect(await moveCount(refusing)).toBe(before);
    expect(await refusing.app.services.erp.client.searchCount('ir.attachment', [])).toBe(attachments);
  });
});
