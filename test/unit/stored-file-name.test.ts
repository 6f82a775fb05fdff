import { describe, expect, it } from 'vitest';
import { storedFileName } from '../../server/extract/file-name';

describe('the name a file is stored under', () => {
  it('drops every bidirectional control (issue 54): overrides, embeddings, isolates and marks', () => {
    expect(storedFileName('invoice\u202Egnp.png', 'image/png')).toBe('invoicegnp.png');
    expect(storedFileName('factura\u202Efdp.exe', 'application/pdf')).toBe('facturafdp.pdf');
    const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
    for (const control of controls) expect(storedFileName(`ti${control}cket.pdf`, 'application/pdf'), JSON.stringify(control)).toBe('ticket.pdf');
    expect(storedFileName('\u202E\u2066', 'image/jpeg')).toBe('documento.jpg');
  });

  it('keeps letters of every script, and still replaces path separators and control characters', () => {
    expect(storedFileName('فاتورة ٢٠٢٤.pdf', 'application/pdf')).toBe('فاتورة ٢٠٢٤.pdf');
    expect(storedFileName('../a\\b\u0007.png', 'image/png')).toBe('.._a_b_.png');
  });
});
