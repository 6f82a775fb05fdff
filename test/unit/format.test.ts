import { describe, expect, it } from 'vitest';
import { formatDay } from '../../shared/domain/format';

describe('formatDay', () => {
  it('writes a calendar day as dd/mm/yyyy, from the text, whatever the time zone', () => {
    expect(formatDay('2026-11-20')).toBe('20/11/2026');
    expect(formatDay('2026-01-31 23:30:00')).toBe('31/01/2026');
    expect(formatDay('2026-01-31T00:10:00Z')).toBe('31/01/2026');
  });
  it('leaves empty values empty and anything else as it came', () => {
    expect(formatDay(false)).toBe('');
    expect(formatDay(null)).toBe('');
    expect(formatDay('')).toBe('');
    expect(formatDay('soon')).toBe('soon');
  });
});
