/**
 * UN/CEFACT Cross Industry Invoice (D16B, as Factur-X 1.0, ZUGFeRD 2.x and XRechnung write it) read into an
 * e-invoice draft. Dates are CII's format 102 (YYYYMMDD). The MINIMUM and BASIC WL profiles have no lines.
 */
import { roundMoney } from '../../shared/domain/money';
import type { EInvoiceLine, EInvoiceParty, EInvoiceTax } from '../../shared/domain/einvoice';
import type { EInvoiceDraft } from './draft';
import type { XmlNode } from './safe-xml';
import { at, attribute, children, exact, isoDate, joined, money, required, textAt } from './xml-tree';

export const CII_NAMESPACE = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';

/** UNCL 1001 document types that credit what an invoice charged. */
const CREDIT_TYPES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** A party's tax id: its VAT id (scheme VA) first, else its fiscal number (FC). */
function partyVat(party: unknown): string | undefined {
  const registrations = children(party, 'SpecifiedTaxRegistration');
  const vat = registrations.find((one) => attribute(at(one, 'ID'), 'schemeID') === 'VA') ?? registrations[0];
  return textAt(vat, 'ID');
}

function seller(party: unknown): EInvoiceParty {
  const address = at(party, 'PostalTradeAddress');
  return {
    name: required(textAt(party, 'Name') ?? textAt(party, 'SpecifiedLegalOrganization', 'TradingBusinessName'), 'SellerTradeParty/Name'),
    vat: partyVat(party),
    address: address
      ? {
          street: joined(textAt(address, 'LineOne'), textAt(address, 'LineTwo'), textAt(address, 'LineThree')),
          city: textAt(address, 'CityName') ?? '',
          postalCode: textAt(address, 'PostcodeCode') ?? '',
          country: textAt(address, 'CountryID') ?? '',
        }
      : undefined,
  };
}

function line(node: unknown): EInvoiceLine {
  const price = exact(at(node, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount')) ?? 0;
  const base = exact(at(node, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'BasisQuantity'));
  return {
    description: textAt(node, 'SpecifiedTradeProduct', 'Name') ?? textAt(node, 'SpecifiedTradeProduct', 'Description') ?? '',
    quantity: exact(at(node, 'SpecifiedLineTradeDelivery', 'BilledQuantity')) ?? 0,
    unitPrice: base ? roundMoney(price / base, 6) : price,
    net: required(money(at(node, 'SpecifiedLineTradeSettlement', 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount')), 'IncludedSupplyChainTradeLineItem/LineTotalAmount'),
    taxRate: exact(at(node, 'SpecifiedLineTradeSettlement', 'ApplicableTradeTax', 'RateApplicablePercent')),
  };
}

export function readCii(root: XmlNode): EInvoiceDraft {
  const document = required(at(root, 'ExchangedDocument'), 'ExchangedDocument');
  const transaction = required(at(root, 'SupplyChainTradeTransaction'), 'SupplyChainTradeTransaction');
  const agreement = at(transaction, 'ApplicableHeaderTradeAgreement');
  const settlement = at(transaction, 'ApplicableHeaderTradeSettlement');
  const summary = required(at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation'), 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = required(textAt(settlement, 'InvoiceCurrencyCode'), 'InvoiceCurrencyCode');
  // A second TaxTotalAmount may state the tax in the tax currency: the one in the invoice's currency (or unmarked).
  const taxTotals = children(summary, 'TaxTotalAmount');
  const taxTotal = taxTotals.find((one) => attribute(one, 'currencyID') === currency) ?? taxTotals.find((one) => !attribute(one, 'currencyID'));
  const net = required(money(at(summary, 'TaxBasisTotalAmount')), 'TaxBasisTotalAmount');
  const total = required(money(at(summary, 'GrandTotalAmount')), 'GrandTotalAmount');
  const taxes: EInvoiceTax[] = children(settlement, 'ApplicableTradeTax').map((tax) => ({
    rate: exact(at(tax, 'RateApplicablePercent')) ?? 0,
    base: money(at(tax, 'BasisAmount')) ?? 0,
    amount: money(at(tax, 'CalculatedAmount')) ?? 0,
    category: textAt(tax, 'CategoryCode'),
  }));
  const typeCode = textAt(document, 'TypeCode');
  const buyer = at(agreement, 'BuyerTradeParty');
  return {
    format: 'cii',
    version: 'D16B',
    profile: textAt(root, 'ExchangedDocumentContext', 'GuidelineSpecifiedDocumentContextParameter', 'ID'),
    credit: typeCode !== undefined && CREDIT_TYPES.has(typeCode),
    number: required(textAt(document, 'ID'), 'ExchangedDocument/ID'),
    issueDate: required(isoDate(textAt(document, 'IssueDateTime', 'DateTimeString')), 'ExchangedDocument/IssueDateTime'),
    dueDate: isoDate(textAt(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime', 'DateTimeString')),
    currency,
    seller: seller(required(at(agreement, 'SellerTradeParty'), 'SellerTradeParty')),
    buyer: { name: textAt(buyer, 'Name'), vat: partyVat(buyer) },
    lines: children(transaction, 'IncludedSupplyChainTradeLineItem').map(line),
    taxes,
    totals: {
      lines: money(at(summary, 'LineTotalAmount')),
      allowances: money(at(summary, 'AllowanceTotalAmount')),
      charges: money(at(summary, 'ChargeTotalAmount')),
      net,
      tax: money(taxTotal) ?? roundMoney(total - net),
      total,
      prepaid: money(at(summary, 'TotalPrepaidAmount')),
      rounding: money(at(summary, 'RoundingAmount')),
      payable: money(at(summary, 'DuePayableAmount')),
    },
  };
}
