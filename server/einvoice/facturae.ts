/**
 * FacturaE 3.2, 3.2.1 and 3.2.2 (Spain's e-invoice, signed .xsig or plain .xml) read into an e-invoice draft. A
 * signature (ds:Signature) is left to server/einvoice/signature.ts. A batch of several invoices is refused: each
 * invoice is a bill of its own. The invoice number is its series followed by its number, as it is printed.
 */
import type { EInvoiceAddress, EInvoiceLine, EInvoiceParty, EInvoiceTax } from '../../shared/domain/einvoice';
import { roundMoney } from '../../shared/domain/money';
import type { EInvoiceDraft } from './draft';
import { EInvoiceError } from './errors';
import type { XmlNode } from './safe-xml';
import { at, children, exact, isoDate, joined, money, required, textAt } from './xml-tree';

/** The namespaces of the versions read, by version. */
export const FACTURAE_NAMESPACES: Readonly<Record<string, string>> = {
  '3.2': 'http://www.facturae.es/Facturae/2009/v3.2/Facturae',
  '3.2.1': 'http://www.facturae.es/Facturae/2014/v3.2.1/Facturae',
  '3.2.2': 'http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml',
};

/** FacturaE's tax type codes, as the taxes are named. */
const TAX_TYPES: Readonly<Record<string, string>> = { '01': 'IVA', '02': 'IPSI', '03': 'IGIC', '04': 'IRPF', '05': 'OTRO' };

/**
 * ISO 3166 alpha-3 codes (FacturaE's) to alpha-2: the EU, the rest of Europe and the countries Spanish companies trade
 * with most. Another code is left as written.
 */
const ALPHA2: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'ESP ES,PRT PT,FRA FR,DEU DE,ITA IT,NLD NL,BEL BE,LUX LU,IRL IE,AUT AT,DNK DK,SWE SE,FIN FI,POL PL,CZE CZ,SVK SK,' +
    'SVN SI,HUN HU,ROU RO,BGR BG,GRC GR,HRV HR,CYP CY,MLT MT,EST EE,LVA LV,LTU LT,GBR GB,CHE CH,NOR NO,ISL IS,AND AD,' +
    'MCO MC,GIB GI,USA US,CAN CA,MEX MX,ARG AR,BRA BR,CHL CL,COL CO,PER PE,URY UY,MAR MA,DZA DZ,TUN TN,CHN CN,JPN JP,' +
    'IND IN,TUR TR,ISR IL,ARE AE,SAU SA,AUS AU,NZL NZ,ZAF ZA,KOR KR,SGP SG,HKG HK,TWN TW,RUS RU,UKR UA'
  )
    .split(',')
    .map((pair) => pair.split(' ')),
);

function address(entity: unknown): EInvoiceAddress | undefined {
  const spain = at(entity, 'AddressInSpain');
  if (spain) {
    return { street: textAt(spain, 'Address') ?? '', city: textAt(spain, 'Town') ?? '', postalCode: textAt(spain, 'PostCode') ?? '', country: 'ES' };
  }
  const overseas = at(entity, 'OverseasAddress');
  if (!overseas) return undefined;
  const country = textAt(overseas, 'CountryCode') ?? '';
  // PostCodeAndTown is one field: "75001 Paris".
  const [, postalCode = '', city = textAt(overseas, 'PostCodeAndTown') ?? ''] = /^\s*(\S*\d\S*)\s+(.+)$/.exec(textAt(overseas, 'PostCodeAndTown') ?? '') ?? [];
  return { street: textAt(overseas, 'Address') ?? '', city, postalCode, country: ALPHA2[country] ?? country };
}

function party(node: unknown, role: string): EInvoiceParty {
  const legal = at(node, 'LegalEntity');
  const individual = at(node, 'Individual');
  const name = legal ? textAt(legal, 'CorporateName') : joined(textAt(individual, 'Name'), textAt(individual, 'FirstSurname'), textAt(individual, 'SecondSurname')) || undefined;
  return {
    name: required(name, `${role}/LegalEntity/CorporateName`),
    vat: textAt(node, 'TaxIdentification', 'TaxIdentificationNumber'),
    address: address(legal ?? individual),
  };
}

/** The taxes of a TaxesOutputs or TaxesWithheld element; a recargo de equivalencia is a tax of its own ('RE'). */
function taxes(list: unknown): EInvoiceTax[] {
  return children(list, 'Tax').flatMap((tax) => {
    const type = textAt(tax, 'TaxTypeCode') ?? '';
    const base = money(at(tax, 'TaxableBase', 'TotalAmount')) ?? 0;
    const found: EInvoiceTax[] = [{ rate: exact(at(tax, 'TaxRate')) ?? 0, base, amount: money(at(tax, 'TaxAmount', 'TotalAmount')) ?? 0, category: TAX_TYPES[type] ?? type }];
    const surcharge = money(at(tax, 'EquivalenceSurchargeAmount', 'TotalAmount'));
    if (surcharge !== undefined) found.push({ rate: exact(at(tax, 'EquivalenceSurcharge')) ?? 0, base, amount: surcharge, category: 'RE' });
    return found;
  });
}

function line(node: unknown): EInvoiceLine {
  const outputs = children(at(node, 'TaxesOutputs'), 'Tax');
  const vat = outputs.find((tax) => ['01', '02', '03'].includes(textAt(tax, 'TaxTypeCode') ?? '')) ?? outputs[0];
  return {
    description: textAt(node, 'ItemDescription') ?? '',
    quantity: exact(at(node, 'Quantity')) ?? 0,
    unitPrice: exact(at(node, 'UnitPriceWithoutTax')) ?? 0,
    net: required(money(at(node, 'GrossAmount')) ?? money(at(node, 'TotalCost')), 'InvoiceLine/GrossAmount'),
    taxRate: exact(at(vat, 'TaxRate')),
  };
}

export function readFacturae(root: XmlNode, namespaceVersion: string): EInvoiceDraft {
  const invoices = children(at(root, 'Invoices'), 'Invoice');
  if (invoices.length > 1) throw new EInvoiceError(422, 'einvoice.manyInvoices', { count: invoices.length });
  const invoice = required(invoices[0], 'Invoices/Invoice');
  const header = at(invoice, 'InvoiceHeader');
  const issue = at(invoice, 'InvoiceIssueData');
  const totals = required(at(invoice, 'InvoiceTotals'), 'InvoiceTotals');
  const net = required(money(at(totals, 'TotalGrossAmountBeforeTaxes')), 'InvoiceTotals/TotalGrossAmountBeforeTaxes');
  const total = required(money(at(totals, 'InvoiceTotal')), 'InvoiceTotals/InvoiceTotal');
  const withholdings = taxes(at(invoice, 'TaxesWithheld'));
  const number = required(textAt(header, 'InvoiceNumber'), 'InvoiceHeader/InvoiceNumber');
  const series = textAt(header, 'InvoiceSeriesCode');
  const dueDates = children(at(invoice, 'PaymentDetails'), 'Installment').map((one) => isoDate(textAt(one, 'InstallmentDueDate'))).filter((date): date is string => !!date).sort();
  const buyer = at(root, 'Parties', 'BuyerParty');
  const buyerName = textAt(buyer, 'LegalEntity', 'CorporateName') ?? (joined(textAt(buyer, 'Individual', 'Name'), textAt(buyer, 'Individual', 'FirstSurname'), textAt(buyer, 'Individual', 'SecondSurname')) || undefined);
  return {
    format: 'facturae',
    version: textAt(root, 'FileHeader', 'SchemaVersion') ?? namespaceVersion,
    // A rectificativa is an invoice whose amounts say which way it goes: negative, it credits (draft.ts).
    credit: false,
    number: series && !number.startsWith(series) ? `${series}${number}` : number,
    issueDate: required(isoDate(textAt(issue, 'IssueDate')), 'InvoiceIssueData/IssueDate'),
    dueDate: dueDates[0],
    currency: required(textAt(issue, 'InvoiceCurrencyCode') ?? textAt(root, 'FileHeader', 'Batch', 'InvoiceCurrencyCode'), 'InvoiceIssueData/InvoiceCurrencyCode'),
    seller: party(required(at(root, 'Parties', 'SellerParty'), 'Parties/SellerParty'), 'SellerParty'),
    buyer: { name: buyerName, vat: textAt(buyer, 'TaxIdentification', 'TaxIdentificationNumber') },
    lines: children(at(invoice, 'Items'), 'InvoiceLine').map(line),
    taxes: taxes(at(invoice, 'TaxesOutputs')),
    withholdings,
    totals: {
      lines: money(at(totals, 'TotalGrossAmount')),
      allowances: money(at(totals, 'TotalGeneralDiscounts')),
      charges: money(at(totals, 'TotalGeneralSurcharges')),
      net,
      tax: money(at(totals, 'TotalTaxOutputs')) ?? roundMoney(total - net),
      withheld: money(at(totals, 'TotalTaxesWithheld')),
      total,
      payable: money(at(totals, 'TotalExecutableAmount')) ?? money(at(totals, 'TotalOutstandingAmount')),
    },
  };
}
