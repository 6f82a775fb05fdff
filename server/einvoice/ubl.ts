/**
 * UBL 2.1 Invoice and CreditNote (OASIS), as Peppol BIS Billing 3.0 and EN 16931 write them, read into an e-invoice
 * draft: the document's own amounts, nothing computed but the unit price per one unit of the price's base quantity.
 */
import { roundMoney } from '../../shared/domain/money';
import type { EInvoiceLine, EInvoiceParty, EInvoiceTax } from '../../shared/domain/einvoice';
import type { EInvoiceDraft } from './draft';
import type { XmlNode } from './safe-xml';
import { all, at, attribute, children, exact, isoDate, joined, money, required, textAt } from './xml-tree';

export const UBL_NAMESPACES = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
} as const;

/** UNCL 1001 document types that credit what an invoice charged. */
const CREDIT_TYPES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** A party's tax id: its VAT registration first, another tax scheme's id, then its legal registration. */
function partyVat(party: unknown): string | undefined {
  const schemes = children(party, 'PartyTaxScheme');
  const vat = schemes.find((scheme) => textAt(scheme, 'TaxScheme', 'ID')?.toUpperCase() === 'VAT') ?? schemes[0];
  return textAt(vat, 'CompanyID') ?? textAt(party, 'PartyLegalEntity', 'CompanyID');
}

function seller(party: unknown): EInvoiceParty {
  const address = at(party, 'PostalAddress');
  return {
    name: required(textAt(party, 'PartyLegalEntity', 'RegistrationName') ?? textAt(party, 'PartyName', 'Name'), 'AccountingSupplierParty/Party/PartyLegalEntity/RegistrationName'),
    vat: partyVat(party),
    address: address
      ? {
          street: joined(textAt(address, 'StreetName'), textAt(address, 'AdditionalStreetName'), textAt(address, 'AddressLine', 'Line')),
          city: textAt(address, 'CityName') ?? '',
          postalCode: textAt(address, 'PostalZone') ?? '',
          country: textAt(address, 'Country', 'IdentificationCode') ?? '',
        }
      : undefined,
  };
}

function line(node: unknown, quantityName: string): EInvoiceLine {
  const price = exact(at(node, 'Price', 'PriceAmount')) ?? 0;
  const base = exact(at(node, 'Price', 'BaseQuantity'));
  return {
    description: textAt(node, 'Item', 'Name') ?? textAt(node, 'Item', 'Description') ?? '',
    quantity: exact(at(node, quantityName)) ?? 0,
    unitPrice: base ? roundMoney(price / base, 6) : price,
    net: required(money(at(node, 'LineExtensionAmount')), `${quantityName.replace('Quantity', 'Line')}/LineExtensionAmount`),
    taxRate: exact(at(node, 'Item', 'ClassifiedTaxCategory', 'Percent')),
  };
}

/** The document's tax total: the one in the invoice's currency (a second one may state it in the tax currency). */
function taxTotal(root: XmlNode, currency: string): unknown {
  const totals = all(root.TaxTotal);
  return totals.find((total) => attribute(at(total, 'TaxAmount'), 'currencyID') === currency && children(total, 'TaxSubtotal').length) ?? totals.find((total) => attribute(at(total, 'TaxAmount'), 'currencyID') === currency) ?? totals[0];
}

export function readUbl(root: XmlNode, rootName: keyof typeof UBL_NAMESPACES): EInvoiceDraft {
  const credit = rootName === 'CreditNote';
  const currency = required(textAt(root, 'DocumentCurrencyCode'), 'DocumentCurrencyCode');
  const tax = taxTotal(root, currency);
  const taxes: EInvoiceTax[] = children(tax, 'TaxSubtotal').map((subtotal) => ({
    rate: exact(at(subtotal, 'TaxCategory', 'Percent')) ?? exact(at(subtotal, 'Percent')) ?? 0,
    base: money(at(subtotal, 'TaxableAmount')) ?? 0,
    amount: money(at(subtotal, 'TaxAmount')) ?? 0,
    category: textAt(subtotal, 'TaxCategory', 'ID'),
  }));
  const monetary = at(root, 'LegalMonetaryTotal');
  const net = required(money(at(monetary, 'TaxExclusiveAmount')), 'LegalMonetaryTotal/TaxExclusiveAmount');
  const total = required(money(at(monetary, 'TaxInclusiveAmount')), 'LegalMonetaryTotal/TaxInclusiveAmount');
  const typeCode = textAt(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode');
  const customer = at(root, 'AccountingCustomerParty', 'Party');
  return {
    format: 'ubl',
    version: textAt(root, 'UBLVersionID') ?? '2.1',
    profile: textAt(root, 'CustomizationID'),
    credit: credit || (typeCode !== undefined && CREDIT_TYPES.has(typeCode)),
    number: required(textAt(root, 'ID'), 'ID'),
    issueDate: required(isoDate(textAt(root, 'IssueDate')), 'IssueDate'),
    dueDate: isoDate(textAt(root, 'DueDate') ?? textAt(root, 'PaymentMeans', 'PaymentDueDate')),
    currency,
    seller: seller(required(at(root, 'AccountingSupplierParty', 'Party'), 'AccountingSupplierParty')),
    buyer: { name: textAt(customer, 'PartyLegalEntity', 'RegistrationName') ?? textAt(customer, 'PartyName', 'Name'), vat: partyVat(customer) },
    lines: children(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((node) => line(node, credit ? 'CreditedQuantity' : 'InvoicedQuantity')),
    taxes,
    totals: {
      lines: money(at(monetary, 'LineExtensionAmount')),
      allowances: money(at(monetary, 'AllowanceTotalAmount')),
      charges: money(at(monetary, 'ChargeTotalAmount')),
      net,
      tax: money(at(tax, 'TaxAmount')) ?? roundMoney(total - net),
      total,
      prepaid: money(at(monetary, 'PrepaidAmount')),
      rounding: money(at(monetary, 'PayableRoundingAmount')),
      payable: money(at(monetary, 'PayableAmount')),
    },
  };
}
