/**
 * The embedded store as an Odoo that lacks a module: its model answers Odoo's UserError "Object x doesn't exist",
 * its fields on other models are left out of fields_get and refused in reads and writes with Odoo's ValueError
 * text. For running the contract flows of a degraded Odoo on the embedded store too.
 */
import { ErpError, type ErpClient } from '../../server/erp/types';

export function withoutModule(erp: ErpClient, absent: { model: string; fields: Record<string, string[]> }): ErpClient {
  const missing = (model: string) => new ErpError('user', `Object ${model} doesn't exist`);
  const check = (model: string, names: Iterable<string>) => {
    if (model === absent.model) throw missing(model);
    for (const name of names) {
      if (absent.fields[model]?.includes(name)) throw new ErpError('validation', `Invalid field '${name}' on model '${model}'`);
    }
  };
  return {
    searchRead: async (model, domain, options) => (check(model, options?.fields ?? []), erp.searchRead(model, domain, options)),
    searchCount: async (model, domain, context, limit) => (check(model, []), erp.searchCount(model, domain, context, limit)),
    read: async (model, ids, fields, context) => (check(model, fields ?? []), erp.read(model, ids, fields, context)),
    readGroup: async (model, domain, options) => (check(model, [options.groupBy, ...options.sums]), erp.readGroup(model, domain, options)),
    create: async (model, values, context) => (check(model, Object.keys(values)), erp.create(model, values, context)),
    write: async (model, ids, values, context) => (check(model, Object.keys(values)), erp.write(model, ids, values, context)),
    unlink: async (model, ids, context) => (check(model, []), erp.unlink(model, ids, context)),
    nameSearch: async (model, name, options) => (check(model, []), erp.nameSearch(model, name, options)),
    call: async <T>(model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>) => {
      check(model, []);
      const answer = await erp.call<T>(model, method, ids, args, kwargs);
      if (method !== 'fields_get') return answer;
      return Object.fromEntries(Object.entries(answer as Record<string, unknown>).filter(([name]) => !absent.fields[model]?.includes(name))) as T;
    },
  };
}
