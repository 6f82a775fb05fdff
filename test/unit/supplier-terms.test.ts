import { describe, expect, it } from 'vitest';
import { supplierSearchTerms } from '../../src/domain/text';

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
