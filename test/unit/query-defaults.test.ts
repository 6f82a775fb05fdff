import { describe, expect, it } from 'vitest';
import { retryRead } from '../../src/providers/queryDefaults';
import { UnreachableError } from '../../src/providers/http';

describe('how a failed read is asked again', () => {
  it('never after a refusal, once after a server failure, twice after a dropped network', () => {
    expect(retryRead(0, { status: 403 })).toBe(false);
    expect(retryRead(0, { status: 503 })).toBe(true);
    expect(retryRead(1, { status: 503 })).toBe(false);
    expect(retryRead(1, new UnreachableError())).toBe(true);
    expect(retryRead(2, new UnreachableError())).toBe(false);
  });

  it('not when the server took the call and answered nothing, nor when the browser knows it is offline', () => {
    expect(retryRead(0, new UnreachableError(undefined, true))).toBe(false);
    expect(retryRead(0, new UnreachableError(), false)).toBe(false);
  });
});
