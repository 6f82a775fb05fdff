/**
 * Issue 27: the server's catalogue of refusals (server/messages.ts). Every key says something in Spanish, in English
 * and in the API's reference form, with no parameter left unfilled; numbers are written as each language writes
 * them; the labels it names fields by are the console's own (src/i18n), so a form and its refusal say the same word.
 */
import { describe, expect, it } from 'vitest';
import { appEn } from '../../src/i18n/app-en';
import { appEs } from '../../src/i18n/app-es';
import { RESOURCES } from '../../shared/resources/registry';
import { erpLang } from '../../server/erp/context';
import { fieldLabel, LABELLED_FIELDS, MESSAGE_KEYS, messageLocale, refusalMessage, renderMessage, resourceWords, type MessageParams } from '../../server/messages';

/** Parameters enough for any template (each key reads the ones it names). */
const SAMPLE: MessageParams = {
  id: 7, ids: [7, 8], decimals: 2, model: 'res.partner', minimum: 0.01, maximum: 1000000, length: 9, count: 3, value: 'x', values: ['a', 'b'], pattern: '^a$', format: 'uuid', divisor: 5,
  keys: ['a'], expected: ['t:string', 'v:ASC'], received: 'array', permissions: ['moves.list', 'moves.validate'], companies: [2, 3], message: 'Odoo said so',
  given: 'text/xml', name: 'Acme', method: 'GET', path: '/x', width: 20000, height: 20000, megapixels: 400, maxMegapixels: 50, pages: 60, seconds: 25,
  resource: 'employees', target: 'journals', code: '600000', company: 'Acme Iberia SL', project: 3, order: 'S00012', email: 'a@b.example', what: '/JS', who: 'Ana Gil', date: '26/11/2026', time: '13:40', by: 'Ana Gil', moves: 'FAC/2026/0041',
  computed: 1210.5, stated: 1210.49, amount: 1210, rate: 21,
};

/** Keys whose text is the same in both languages on purpose. */
const SAME_IN_BOTH = new Set(['file.tooLarge', 'erp.access', 'erp.validation', 'erp.user', 'erp.missing']);

describe('the refusal catalogue', () => {
  it('words every key in Spanish, English and the API form, filling every parameter', () => {
    expect(MESSAGE_KEYS.length).toBeGreaterThan(100);
    for (const key of MESSAGE_KEYS) {
      for (const locale of ['es', 'en', 'api'] as const) {
        const text = renderMessage(locale, key, SAMPLE, 'amount');
        expect(text, `${key} ${locale}`).toMatch(/\S/);
        expect(text, `${key} ${locale}`).not.toMatch(/\{#?\w+\}|undefined|\[object/);
      }
      if (!SAME_IN_BOTH.has(key)) expect(renderMessage('es', key, SAMPLE, 'amount'), key).not.toBe(renderMessage('en', key, SAMPLE, 'amount'));
    }
  });

  it('never fails for parameters a template did not expect: the key stands in', () => {
    expect(renderMessage('es', 'validation.unknownFields', {})).toBe('validation.unknownFields');
    expect(renderMessage('es', 'moves.notFound', {})).toBe('No se ha encontrado el movimiento {id}');
  });

  it('writes numbers as each language writes them, and plainly for a script', () => {
    expect(refusalMessage('es', { key: 'validation.min', params: { minimum: 0.01 }, field: 'amount' })).toBe('Importe: debe ser al menos 0,01');
    expect(refusalMessage('es', { key: 'validation.max', params: { maximum: 1e9 }, field: 'amount' })).toBe('Importe: debe ser como máximo 1.000.000.000');
    expect(refusalMessage('en', { key: 'validation.max', params: { maximum: 1e9 }, field: 'amount' })).toBe('Amount: must be at most 1,000,000,000');
    expect(refusalMessage('api', { key: 'validation.max', params: { maximum: 1e9 }, field: 'amount' })).toBe('amount: must be at most 1000000000');
    // Ids are not amounts: never grouped.
    expect(renderMessage('es', 'moves.notFound', { id: 12345 })).toBe('No se ha encontrado el movimiento 12345');
  });

  it('names the alternatives of a value in the language, with "o" in Spanish', () => {
    expect(refusalMessage('es', { key: 'validation.type', params: { expected: ['t:string', 't:number'], received: 'boolean' }, field: 'partner' })).toBe('partner: debe ser texto o un número, no verdadero o falso');
    expect(refusalMessage('api', { key: 'validation.type', params: { expected: ['t:string', 't:number'], received: 'boolean' }, field: 'partner' })).toBe('partner: must be text or a number, not true or false');
  });

  it("answers a script in the API's English and a person in their language", () => {
    expect(messageLocale(undefined)).toBe('api');
    expect(messageLocale('*')).toBe('api');
    expect(messageLocale('fr-FR')).toBe('api');
    expect(messageLocale('es')).toBe('es');
    expect(messageLocale('es-ES,es;q=0.9,en;q=0.8')).toBe('es');
    expect(messageLocale('en-GB,en;q=0.9')).toBe('en');
    expect(messageLocale('fr, en;q=0.5, es;q=0.4')).toBe('en');
    expect(messageLocale('en;q=0, es')).toBe('es');
  });

  it("asks the ERP in the same language (Odoo's own refusals come back in it), Spanish for a script", () => {
    expect(erpLang('es-ES,es;q=0.9')).toBe('es_ES');
    expect(erpLang('fr, en;q=0.5, es;q=0.4')).toBe('en_US');
    expect(erpLang(undefined)).toBe('es_ES');
    expect(erpLang('*')).toBe('es_ES');
  });
});

describe('field labels', () => {
  type Tree = { [key: string]: string | Tree };
  const console = (catalogue: Tree, path: string) => path.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), catalogue);
  /** Each labelled field path and the console's key for the same input. */
  const CONSOLE_KEYS: Record<string, string> = {
    'fields.name': 'app.contactForm.fields.name',
    'fields.email': 'app.contactForm.fields.email',
    'fields.phone': 'app.contactForm.fields.phone',
    'fields.company_name': 'app.contactForm.fields.companyName',
    'fields.from_event_assistant': 'app.contactForm.fields.event',
    'fields.company_id': 'app.contactForm.fields.company',
    'fields.x_studio_tipo_inversor': 'app.contactForm.fields.investorType',
    'fields.category_id': 'app.contactForm.fields.categories',
    'fields.function': 'app.contactForm.fields.position',
    'fields.website': 'app.contactForm.fields.website',
    'fields.notes': 'app.contactForm.fields.notes',
    'fields.comment': 'app.contactForm.fields.comment',
    company_id: 'app.move.fields.company',
    project: 'app.move.fields.project',
    project_id: 'app.move.fields.project',
    partner_id: 'app.move.fields.supplier',
    concept: 'app.move.fields.concept',
    ref: 'app.moveDetail.reference',
    amount: 'app.move.fields.amount',
    paymentMethod: 'app.move.fields.paymentMethod',
    paymentStatus: 'app.move.fields.paymentStatus',
    date: 'app.move.fields.date',
    comment: 'app.move.fields.comment',
    'order.company_id': 'app.order.fields.company',
    'order.partner_id': 'app.order.fields.partner',
    'order.date_order': 'app.order.fields.date',
    'order.client_order_ref': 'app.order.fields.clientRef',
    'order.pricelist_id': 'app.order.fields.pricelist',
    'order.payment_term_id': 'app.order.fields.paymentTerm',
    'order.payment_mode_id': 'app.order.fields.paymentMode',
    'order.note': 'app.order.fields.note',
    lines: 'app.order.lines',
    'lines.*.product_id': 'app.order.fields.product',
    'lines.*.name': 'app.order.fields.description',
    'lines.*.product_uom_qty': 'app.order.fields.quantity',
    'lines.*.price_unit': 'app.order.fields.priceUnit',
    'lines.*.tax_id': 'app.order.fields.tax',
    'lines.*.product_uom': 'app.order.fields.uom',
    firstName: 'app.users.fields.firstName',
    lastName: 'app.users.fields.lastName',
    email: 'app.users.fields.email',
    companies: 'app.users.fields.companies',
    permissions: 'app.users.fields.permissions',
    dateFrom: 'app.report.dateFrom',
    dateTo: 'app.report.dateTo',
    filters: 'app.filters.label',
  };

  it("are the console's labels of the same inputs, in both languages", () => {
    for (const [path, key] of Object.entries(CONSOLE_KEYS)) {
      const concrete = path.replace('*', '1');
      for (const [locale, catalogue] of [['es', appEs], ['en', appEn]] as const) {
        const expected = console(catalogue as unknown as Tree, key);
        expect(typeof expected, `${key} in ${locale}`).toBe('string');
        const label = fieldLabel(concrete, locale);
        expect(label, `${path} in ${locale}`).toBe(path.includes('*') ? `${expected} (${locale === 'es' ? 'línea' : 'line'} 2)` : expected);
      }
    }
  });

  it('cover every field a generic form edits, with its resource named in both languages', () => {
    const generic = RESOURCES.filter((resource) => resource.generic?.some((verb) => verb === 'create' || verb === 'update'));
    expect(generic.length).toBeGreaterThan(0);
    for (const resource of generic) {
      expect(resourceWords(resource.name), resource.name).toBeDefined();
      for (const [name, field] of Object.entries(resource.fields)) {
        if (!field.editable) continue;
        const key = `resources.${resource.name}.fields.${name}`;
        expect(fieldLabel(name, 'es'), key).toBe(console(appEs as unknown as Tree, key));
        expect(fieldLabel(name, 'en'), key).toBe(console(appEn as unknown as Tree, key));
      }
    }
    // Every label the server declares is tied to the console here or by its resource.
    const tied = new Set([...Object.keys(CONSOLE_KEYS), ...generic.flatMap((resource) => Object.keys(resource.fields)), 'file']);
    expect(LABELLED_FIELDS.filter((path) => !tied.has(path))).toEqual([]);
  });
});
