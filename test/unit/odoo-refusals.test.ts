/**
 * Issue 50, items 2 and 3: the language a call is made in is one Odoo has installed (Odoo 18 and 19 refuse any other:
 * "Invalid language code: es_ES"), and Odoo's refusals whose cause is known are worded by the catalogue with the fix,
 * in the user's language, whichever language Odoo answered in, with Odoo's own text kept for the log.
 */
import { describe, expect, it } from 'vitest';
import { closestLanguage } from '../../server/erp/odoo/languages';
import { fromOdooError } from '../../server/erp/odoo/errors';
import { OdooClient } from '../../server/erp/odoo/client';
import { withErpContext } from '../../server/erp/context';
import { refusalMessage } from '../../server/messages';
import { answered } from '../support/answered';

describe('the closest installed language', () => {
  it('is the one asked, else one of the same language (its main country first), else English', () => {
    expect(closestLanguage('es_ES', ['en_US', 'es_ES'])).toBe('es_ES');
    expect(closestLanguage('es_ES', ['en_US', 'es_MX', 'es_AR'])).toBe('es_AR');
    expect(closestLanguage('es_ES', ['en_US'])).toBe('en_US');
    expect(closestLanguage('es_ES', ['fr_FR'])).toBe('en_US');
    expect(closestLanguage('en_US', ['en_GB', 'es_ES'])).toBe('en_GB');
  });
});

describe("Odoo's known refusals", () => {
  const said = (error: ReturnType<typeof fromOdooError>, locale: 'es' | 'en' | 'api') => refusalMessage(locale, { key: error.key, params: error.params, field: error.field, api: error.api });

  it('a sender without an e-mail, in English or in Spanish: 502 naming the fix, Odoo\'s text in the log', () => {
    for (const message of ["Unable to send message, please configure the sender's email address.", 'No se puede enviar el mensaje, configure la dirección de correo electrónico del remitente.']) {
      const error = fromOdooError({ name: 'odoo.exceptions.UserError', message });
      expect(answered(error)).toMatchObject({ statusCode: 502, key: 'erp.senderEmail', logged: { odoo: message } });
      expect(said(error, 'es')).toMatch(/^Odoo no puede enviar mensajes como el usuario de la API .*Correo electrónico\)$/);
      expect(said(error, 'en')).toMatch(/Settings > Users > the API user > Email/);
      expect(said(error, 'api')).not.toContain('Unable to send');
    }
  });

  it('a missing account, a lock date, an access refusal naming its model', () => {
    expect(answered(fromOdooError({ name: 'odoo.exceptions.ValidationError', message: 'Falta la cuenta requerida en la línea contable.' }))).toMatchObject({ statusCode: 502, key: 'erp.missingAccount' });
    expect(answered(fromOdooError({ name: 'odoo.exceptions.UserError', message: 'You cannot add/modify entries prior to and inclusive of: 31/12/2025.' }))).toMatchObject({ statusCode: 400, key: 'erp.lockDate' });
    const access = fromOdooError({ name: 'odoo.exceptions.AccessError', message: "Uh-oh! Looks like you have stumbled upon some top-secret records.\n\nSorry, Console API (id=8) doesn't have 'read' access to:\n- Contact, Marta Manager (res.partner: 73)" });
    expect(answered(access)).toMatchObject({ statusCode: 403, key: 'erp.accessModel', params: { model: 'res.partner' } });
    expect(said(access, 'es')).toBe('Odoo no deja hacer esto al usuario de la API del servidor (res.partner): avise a su administrador (permisos del usuario de la API, paso 2 del README)');
  });

  it('other refusals keep Odoo\'s text, as before', () => {
    expect(answered(fromOdooError({ name: 'odoo.exceptions.UserError', message: 'You can not delete a sent quotation or a confirmed sales order.' }))).toMatchObject({ statusCode: 400, key: 'erp.user', api: 'You can not delete a sent quotation or a confirmed sales order.' });
  });
});

describe('a call in a language Odoo has not installed', () => {
  it('is made again in the closest installed one, and the next calls go in it at once', async () => {
    const contexts: Array<{ model: string; lang: unknown }> = [];
    const fake = (async (url: string | URL | Request, init?: RequestInit) => {
      const path = new URL(String(url)).pathname;
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      if (path === '/web/webclient/version_info') return json({ jsonrpc: '2.0', id: 1, result: { server_version_info: [18, 0, 0, 'final', 0, ''] } });
      const { params } = JSON.parse(String(init?.body)) as { params: { service: string; args: unknown[] } };
      if (params.service === 'common') return json({ jsonrpc: '2.0', id: 1, result: 7 });
      const [, , , model, , , kwargs] = params.args as [unknown, unknown, unknown, string, string, unknown[], { context: { lang?: string } }];
      contexts.push({ model, lang: kwargs.context.lang });
      if (model === 'res.lang') return json({ jsonrpc: '2.0', id: 1, result: [{ code: 'en_US' }] });
      if (kwargs.context.lang !== 'en_US') return json({ jsonrpc: '2.0', id: 1, error: { code: 200, message: 'Odoo Server Error', data: { name: 'odoo.exceptions.UserError', message: `Invalid language code: ${kwargs.context.lang}` } } });
      return json({ jsonrpc: '2.0', id: 1, result: [{ id: 1, name: 'IVA 21%' }] });
    }) as typeof fetch;
    const client = new OdooClient({ url: 'http://odoo.test', db: 'db', login: 'api', apiKey: 'key', fetch: fake });
    const asked = () => withErpContext({ lang: 'es_ES', tz: 'Europe/Madrid' }, () => client.searchRead('account.tax', [], { fields: ['name'] }));
    expect(await asked()).toEqual([{ id: 1, name: 'IVA 21%' }]);
    expect(await asked()).toEqual([{ id: 1, name: 'IVA 21%' }]);
    expect(contexts).toEqual([
      { model: 'account.tax', lang: 'es_ES' },
      { model: 'res.lang', lang: 'en_US' },
      { model: 'account.tax', lang: 'en_US' },
      { model: 'account.tax', lang: 'en_US' },
    ]);
    expect(await client.languages()).toEqual({ installed: ['en_US'], es: 'en_US', en: 'en_US' });
  });
});
