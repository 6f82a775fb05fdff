import { describe, expect, it } from 'vitest';
import { supplierSearchTerms } from '../../shared/domain/text';

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
