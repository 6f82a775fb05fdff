/**
 * The ERP client, measured: each call's duration by model and method, and its failures by kind, around any
 * ErpClient (the embedded store, a real Odoo, a test's wrapper). Everything else passes through untouched.
 */
import { faultOf } from '../db/faults';
import { ErpError, type ErpClient } from '../erp/types';
import type { AppMetrics } from './registry';

/** The client's verbs as Odoo names them (`call` is named by the method it calls). */
const METHODS: Record<keyof ErpClient, string> = {
  searchRead: 'search_read',
  searchCount: 'search_count',
  searchPage: 'search_page',
  read: 'read',
  readGroup: 'read_group',
  create: 'create',
  write: 'write',
  unlink: 'unlink',
  nameSearch: 'name_search',
  call: 'call',
  version: 'version',
  download: 'download',
};

/** Models and methods are named by the code; anything else (never expected) is one label value, not many. */
const label = (value: unknown) => (typeof value === 'string' && /^[\w.]{1,64}$/.test(value) ? value : 'other');

/** Whether the failure is a time limit (fetch's TimeoutError), at most a few causes deep. */
function timedOut(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause; depth++) {
    if ((cause as { name?: unknown }).name === 'TimeoutError') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** A failed call's kind: the ERP's own (ErpError), a time limit, the database under the embedded store, or other. */
export function erpFailure(error: unknown): string {
  if (error instanceof ErpError) return error.kind === 'unavailable' && timedOut(error) ? 'timeout' : error.kind;
  if (faultOf(error)) return 'database';
  return 'other';
}

export function measuredErp(erp: ErpClient, metrics: Pick<AppMetrics, 'erpDuration' | 'erpErrors'>): ErpClient {
  // Per function the client gives (a test's wrapper may give another one each time).
  const measured = new WeakMap<object, (...args: unknown[]) => Promise<unknown>>();
  const measure = (name: keyof ErpClient, verb: (...args: unknown[]) => unknown) => async (...args: unknown[]) => {
    const labels = name === 'version' || name === 'download' ? { model: 'none', method: METHODS[name] } : { model: label(args[0]), method: name === 'call' ? label(args[1]) : METHODS[name] };
    const end = metrics.erpDuration.startTimer(labels);
    try {
      return await verb.apply(erp, args);
    } catch (error) {
      metrics.erpErrors.inc({ ...labels, kind: erpFailure(error) });
      throw error;
    } finally {
      end();
    }
  };
  return new Proxy(erp, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      if (typeof name !== 'string' || !Object.hasOwn(METHODS, name)) return value.bind(target);
      let verb = measured.get(value);
      if (!verb) measured.set(value, (verb = measure(name as keyof ErpClient, value as (...args: unknown[]) => unknown)));
      return verb;
    },
  });
}
