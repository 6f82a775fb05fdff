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

describe("the console's text validators (the server's rule, in the console's words)", () => {
  it('name the fault by a key both catalogues word', async () => {
    const { singleLineText, multiLineText } = await import('../../src/custom/inputs/textRules');
    const { appEn: en } = await import('../../src/i18n/app-en');
    const { appEs: es } = await import('../../src/i18n/app-es');
    const call = (validator: typeof singleLineText, value: string) => validator(value, {}, {} as never);
    expect(call(singleLineText, 'Taxi')).toBeUndefined();
    expect(call(singleLineText, 'Taxi\nX')).toBe('app.inputs.text.lineBreak');
    expect(call(singleLineText, 'a\u0007')).toBe('app.inputs.text.control');
    expect(call(singleLineText, 'a\u202Eb')).toBe('app.inputs.text.direction');
    expect(call(multiLineText, 'a\nb\tc')).toBeUndefined();
    expect(call(multiLineText, 'a\u001B')).toBe('app.inputs.text.control');
    const texts = (catalogue: typeof en) => catalogue.app.inputs.text;
    expect(texts(en)).toEqual({ lineBreak: 'Must be a single line', control: 'Must not contain control characters', direction: 'Must not contain characters that change the direction of the text' });
    expect(texts(es)).toEqual({ lineBreak: 'Debe ser una sola línea', control: 'No puede contener caracteres de control', direction: 'No puede contener caracteres que cambian la dirección del texto' });
  });
});
