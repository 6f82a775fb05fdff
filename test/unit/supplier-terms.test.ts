import { describe, expect, it } from 'vitest';
import { closestSupplier, supplierSearchTerms } from '../../shared/domain/text';

describe('looking up a supplier read from a document', () => {
  it('tries the name as read, then without its legal form', () => {
    expect(supplierSearchTerms('Suministros Levante, S.L.')).toEqual(['Suministros Levante, S.L.', 'Suministros Levante']);
    expect(supplierSearchTerms('  Telefónica de España  SAU ')).toEqual(['Telefónica de España SAU', 'Telefónica de España']);
    expect(supplierSearchTerms('SYARIKAT PERNIAGAAN GIN KEE SDN BHD')).toEqual(['SYARIKAT PERNIAGAAN GIN KEE SDN BHD', 'SYARIKAT PERNIAGAAN GIN KEE']);
    expect(supplierSearchTerms('Northwind Traders Ltd.')).toEqual(['Northwind Traders Ltd.', 'Northwind Traders']);
  });
  it('leaves a name without legal form alone and never searches by a fragment too short to mean anything', () => {
    expect(supplierSearchTerms('Copistería Centro')).toEqual(['Copistería Centro']);
    expect(supplierSearchTerms('S.A.')).toEqual(['S.A.']);
    expect(supplierSearchTerms('AB SL')).toEqual(['AB SL']);
  });
});

describe('a tax id as printed, as a stored VAT number contains it', () => {
  it('keeps capitals and digits and drops a country prefix', async () => {
    const { vatCore } = await import('../../shared/domain/text');
    expect(vatCore('B-46.123.456')).toBe('B46123456');
    expect(vatCore('ES B46123456')).toBe('B46123456');
    expect(vatCore('esb46123456')).toBe('B46123456');
    expect(vatCore('12345678-Z')).toBe('12345678Z');
    expect(vatCore('ES12345678Z')).toBe('12345678Z');
    expect(vatCore('000849813504')).toBe('000849813504');
  });
});

describe('the stored supplier a name read with an OCR slip stands for', () => {
  const stored = [
    { id: 1, name: 'Lian Hing Stationery Sdn Bhd' },
    { id: 2, name: 'Papelería Sol SL' },
    { id: 3, name: 'Pasar Mini Jin Seng' },
    { id: 4, name: 'Ferretería Gómez SL' },
    { id: 5, name: 'Ferretería Gámez SL' },
  ];
  it('finds it through a letter or two misread, dropped or added, case, accents and legal form aside', () => {
    expect(closestSupplier('LJAN HING STATIONERY SDN BHD', stored)?.id).toBe(1);
    expect(closestSupplier('LAN HING STATIONERY', stored)?.id).toBe(1);
    expect(closestSupplier('PAPELERIA S0L S.L.', stored)?.id).toBe(2);
    expect(closestSupplier('PESAR MINT JIN SENG', stored)?.id).toBe(3);
  });
  it('reads through letters OCR confuses and a short stray word at either end (issue 51)', () => {
    const shops = [{ id: 6, name: 'Perniagaan Zheng Hui' }, { id: 7, name: 'SHH Motor (Sungai Rengit) Sdn. Bhd.' }];
    expect(closestSupplier('DIST PERNIAGAAN ZHENG HU)', shops)?.id).toBe(6);
    expect(closestSupplier('SHH M0TOR SUNGA1 RENG1T SDN BHD', shops)?.id).toBe(7);
    expect(closestSupplier('DIST PERNIAGAAN CHENG LEE', shops)).toBeUndefined();
  });
  it('finds none when the name differs more, is too short to tell, or two suppliers are as near', () => {
    expect(closestSupplier('LIAN HUAT HARDWARE SDN BHD', stored)).toBeUndefined();
    expect(closestSupplier('Papelería Luna SL', stored)).toBeUndefined();
    expect(closestSupplier('SOL', [{ id: 9, name: 'SAL' }])).toBeUndefined();
    expect(closestSupplier('FERRETERIA GIMEZ SL', stored)).toBeUndefined();
    expect(closestSupplier('LJAN HING STATIONERY', [])).toBeUndefined();
  });
});
