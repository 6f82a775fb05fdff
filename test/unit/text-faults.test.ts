import { describe, expect, it } from 'vitest';
import { textFault } from '../../shared/domain/text';

describe('textFault (issue 29, item 9)', () => {
  it('refuses line breaks, C0 and C1 controls, DEL and direction overrides in a one-line text', () => {
    expect(textFault('Taxi aeropuerto')).toBeUndefined();
    expect(textFault('Cena \u200Eclientes \u200F')).toBeUndefined();
    expect(textFault('Ñandú, S.L. — 12 €')).toBeUndefined();
    for (const text of ['a\nb', 'a\rb', 'a\u2028b', 'a\u2029b', 'a\u0085b']) expect(textFault(text), JSON.stringify(text)).toBe('lineBreak');
    for (const text of ['a\tb', 'a\u0000', '\u0007', 'a\u001Bb', 'a\u007Fb', 'a\u0080', '\u009F']) expect(textFault(text), JSON.stringify(text)).toBe('control');
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) expect(textFault(`x${String.fromCharCode(code)}y`)).toBe('direction');
  });
  it('keeps line breaks and tabs in a multi-line text, and refuses the other controls and overrides', () => {
    expect(textFault('Primera\r\nSegunda\tcolumna\n', true)).toBeUndefined();
    for (const text of ['a\u000Bb', 'a\u000Cb', 'a\u0000', 'a\u007F', 'a\u0085b', 'a\u001B[31m']) expect(textFault(text, true), JSON.stringify(text)).toBe('control');
    expect(textFault('a\u202Eb', true)).toBe('direction');
  });
});
