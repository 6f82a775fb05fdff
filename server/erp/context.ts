/**
 * What every ERP call of one request carries in Odoo's context: the user's language (reference names such as
 * taxes and payment terms come back translated) and the company's time zone (Odoo's day boundaries and
 * "today"). Held in an AsyncLocalStorage entered once per request, so route code does not thread it through.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { messageLocale } from '../messages';

export interface RequestErpContext {
  lang: 'es_ES' | 'en_US';
  tz: string;
  /** Companies a search of this request left out because the ERP does not give them to the server (erp/companies.ts). */
  companiesLeftOut?: Set<number>;
}

/** The response header naming the companies left out of a request's answer, for the console to warn (ids, comma-separated). */
export const COMPANIES_LEFT_OUT_HEADER = 'x-erp-companies-left-out';

/** Notes, on the request being served, companies its answer leaves out. */
export function noteCompaniesLeftOut(companies: readonly number[]): void {
  const context = storage.getStore();
  if (!context) return;
  context.companiesLeftOut ??= new Set();
  for (const id of companies) context.companiesLeftOut.add(id);
}

export { DEFAULT_TIME_ZONE } from '../config';

const storage = new AsyncLocalStorage<RequestErpContext>();

/** Runs `next` (the rest of the request) with this context. */
export function withErpContext<T>(context: RequestErpContext, next: () => T): T {
  return storage.run(context, next);
}

/** The context of the request being served, if any (scripts and start-up checks run without one). */
export function currentErpContext(): RequestErpContext | undefined {
  return storage.getStore();
}

/**
 * The console's language from an Accept-Language header, as the refusals read it (server/messages.ts): English when
 * it asks for English before Spanish, else Spanish (the companies' language, also for a script that asks for neither).
 */
export function erpLang(acceptLanguage: string | undefined): RequestErpContext['lang'] {
  return messageLocale(acceptLanguage) === 'en' ? 'en_US' : 'es_ES';
}
