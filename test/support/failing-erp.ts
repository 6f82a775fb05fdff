import type { ErpClient } from '../../server/erp/types';

/**
 * An ERP client for `wrapErp` whose every call fails with what `failure()` gives while it gives something (an
 * ErpError for an ERP down or timing out, a TypeError for a bug of ours), and otherwise goes to the real client.
 */
export function failingWhen(failure: () => Error | undefined): (client: ErpClient) => ErpClient {
  return (client) =>
    new Proxy(client, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const error = failure();
          return error ? Promise.reject(error) : (value as (...given: unknown[]) => unknown).apply(target, args);
        };
      },
    });
}
