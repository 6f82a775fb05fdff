/**
 * Printing on an ERP that has its own report (a real Odoo): the server fetches Odoo's PDF through the order's portal
 * link with its own credentials and streams it; when Odoo cannot print (no wkhtmltopdf: an HTTP 400 page), the
 * server prints the order itself from the ERP's data. The browser never goes to the ERP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import type { ErpClient } from '../../server/erp/types';
import { startTestServer, type TestServer } from './helpers';

const ODOO_PDF = Buffer.from('%PDF-1.7\n% the report Odoo rendered\n%%EOF\n');
let answer: { status: number; contentType: string; body: Buffer } = { status: 200, contentType: 'application/pdf', body: ODOO_PDF };
const asked: string[] = [];
let server: TestServer;
let token: string;

/** The embedded store with a web server and portal links of its own, as a real Odoo has. */
function withReports(erp: ErpClient): ErpClient {
  return Object.assign(Object.create(erp) as ErpClient, {
    call: async <T>(model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>): Promise<T> => {
      if (model !== 'sale.order' || method !== 'get_portal_url') return erp.call<T>(model, method, ids, args, kwargs);
      // Odoo 17's portal.mixin: access_url + '?access_token=...' + '&report_type=pdf' + '&download=true'.
      expect(kwargs).toEqual({ report_type: 'pdf', download: true });
      return `/my/orders/${ids[0]}?access_token=0f3c-token-${ids[0]}&report_type=pdf&download=true` as T;
    },
    download: async (path: string) => {
      asked.push(path);
      return answer;
    },
  });
}

beforeAll(async () => {
  server = await startTestServer({ seedErp: true, wrapErp: withReports });
  token = await server.tokenFor('sales@demo.example');
}, 120_000);
afterAll(() => server?.stop());

async function print(orderId: number) {
  const link = await server.app.inject({ method: 'GET', url: `/odoo/orders/${orderId}/print-url`, headers: { authorization: token } });
  expect(link.statusCode).toBe(200);
  const url: string = link.json().url;
  expect(url.startsWith(`/report/pdf/sale.report_saleorder/${orderId}?token=`)).toBe(true);
  // A new tab: no authorization header, only the signed link.
  return server.app.inject({ method: 'GET', url });
}

describe('printing an order on an ERP with its own report', () => {
  it("streams the ERP's own PDF, fetched through the order's portal link", async () => {
    const [order] = await server.app.services.erp.client.searchRead('sale.order', [['company_id', '=', 1]], { fields: ['name'], limit: 1 });
    const response = await print(order.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.equals(ODOO_PDF)).toBe(true);
    expect(asked.at(-1)).toMatch(new RegExp(`^/my/orders/${order.id}\\?access_token=[^&]+&report_type=pdf&download=true$`));
  });

  it('prints the order itself when the ERP answers an error page instead of a PDF', async () => {
    answer = { status: 400, contentType: 'text/html; charset=utf-8', body: Buffer.from('<html>Unable to find Wkhtmltopdf on this system.</html>') };
    const [order] = await server.app.services.erp.client.searchRead('sale.order', [['company_id', '=', 1]], { fields: ['name'], limit: 1 });
    const response = await print(order.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(response.rawPayload)), { mergePages: true });
    expect(text).toContain(String(order.name));
  });
});
