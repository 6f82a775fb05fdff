import { describe, expect, it } from 'vitest';
import { safeWebUrl } from '../../shared/domain/links';

describe('links from data (a contact website)', () => {
  it('keeps http and https, reads a bare domain as https', () => {
    expect(safeWebUrl('https://www.linkedin.com/in/ana')).toBe('https://www.linkedin.com/in/ana');
    expect(safeWebUrl('http://example.com')).toBe('http://example.com/');
    expect(safeWebUrl('www.example.es/equipo')).toBe('https://www.example.es/equipo');
    expect(safeWebUrl('  example.com  ')).toBe('https://example.com/');
  });
  it('never makes a link of another scheme or of plain text', () => {
    for (const value of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'mailto:a@b.c', 'ftp://example.com', 'Ana en LinkedIn', '', null, undefined, 42, 'java\tscript:alert(1)']) {
      expect(safeWebUrl(value), String(value)).toBeNull();
    }
  });
});
