/**
 * A supplier's electronic invoice as the console uses it (issue 55), whatever it was written in: FacturaE 3.2.x, UBL
 * 2.1 (Peppol BIS Billing 3.0) or CII (Factur-X, ZUGFeRD 2.x, XRechnung). The server reads the XML into this shape
 * (server/einvoice); the rules here are pure, for console and server alike.
 *
 * Money is in the invoice's currency, rounded to the cent (roundMoney). A credit note (a UBL CreditNote, a CII or UBL
 * type 381, an invoice whose total is negative) is `kind: 'creditNote'` with its amounts positive, as a refund is
 * registered; the lines and taxes keep their signs relative to the total (a discount line stays negative).
 */
import { roundMoney } from './money';

export type EInvoiceFormat = 'facturae' | 'ubl' | 'cii';
export type EInvoiceKind = 'invoice' | 'creditNote';

export interface EInvoiceAddress {
  street: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2 (FacturaE's alpha-3 codes are turned into it: ESP -> ES). */
  country: string;
}

export interface EInvoiceParty {
  name: string;
  /** The tax id as written (VAT id such as ESB12345678 or DE123456789; a FacturaE NIF often without its country). */
  vat?: string;
  address?: EInvoiceAddress;
}

export interface EInvoiceLine {
  description: string;
  /** As written (not rounded to the cent). */
  quantity: number;
  /** The net price of one unit (of the price's base quantity), as written: up to 6 decimals. */
  unitPrice: number;
  /** The line's net amount (after its own discounts and charges). */
  net: number;
  /** VAT (or IGIC, IPSI) percent, when the line says it. */
  taxRate?: number;
}

export interface EInvoiceTax {
  /** Percent: 21 for 21 %. */
  rate: number;
  base: number;
  amount: number;
  /**
   * What tax it is: a FacturaE tax type (IVA, IGIC, IPSI...; 'RE' for the recargo de equivalencia on a base), an
   * EN 16931 VAT category (S standard, Z zero, E exempt, AE reverse charge, K intra-community, G export, O outside).
   */
  category?: string;
}

export interface EInvoiceTotals {
  /** The sum of the lines' net amounts as the invoice states it, when it states it (UBL, CII, FacturaE). */
  lines?: number;
  /** Document-level discounts (FacturaE general discounts, UBL/CII allowances), positive. */
  allowances?: number;
  /** Document-level charges (FacturaE general surcharges, UBL/CII charges), positive. */
  charges?: number;
  /** Before taxes: lines - allowances + charges. */
  net: number;
  /** The taxes charged (VAT...), withholdings apart. */
  tax: number;
  /** Taxes withheld (FacturaE: IRPF), positive: the total is net + tax - withheld. */
  withheld?: number;
  total: number;
  /** Paid already (UBL/CII prepaid amount), positive. */
  prepaid?: number;
  /** Added to round what is payable (UBL PayableRoundingAmount, CII RoundingAmount). */
  rounding?: number;
  /** What is left to pay, when the invoice states it. */
  payable?: number;
}

export interface EInvoice {
  format: EInvoiceFormat;
  /** The syntax's version: '3.2.2' (FacturaE), '2.1' (UBL), 'D16B' (CII). */
  version: string;
  /** The specification the document says it follows (UBL CustomizationID, CII guideline id), when it says one. */
  profile?: string;
  /** How a person names it: 'FacturaE 3.2.2', 'UBL 2.1 (Peppol BIS 3.0)', 'Factur-X EN 16931'. */
  label: string;
  kind: EInvoiceKind;
  number: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  /** YYYY-MM-DD, when the invoice says when it is due. */
  dueDate?: string;
  /** ISO 4217. */
  currency: string;
  seller: EInvoiceParty;
  buyer: { name?: string; vat?: string };
  lines: EInvoiceLine[];
  taxes: EInvoiceTax[];
  /** Taxes withheld (IRPF), by rate, when there are. */
  withholdings?: EInvoiceTax[];
  totals: EInvoiceTotals;
}

/** What checkTotals finds: a message key with the two amounts that disagree (the server's catalogue words it). */
export type EInvoiceCheckKey = 'einvoice.linesMismatch' | 'einvoice.taxesMismatch' | 'einvoice.totalMismatch' | 'einvoice.payableMismatch';
export interface EInvoiceInconsistency {
  key: EInvoiceCheckKey;
  params: { computed: number; stated: number };
}

const sum = (values: number[]) => roundMoney(values.reduce((total, value) => total + value, 0));

/**
 * The sums of an e-invoice that do not add up, to the cent: the lines against the amount before taxes (with the
 * document's allowances and charges), the taxes against the tax total, base plus taxes (less withholdings) against
 * the total, and the total less what was prepaid (and its rounding) against what is payable (both stated). None: an empty list.
 */
export function checkTotals(invoice: Pick<EInvoice, 'lines' | 'taxes' | 'totals'>): EInvoiceInconsistency[] {
  const { totals } = invoice;
  const found: EInvoiceInconsistency[] = [];
  const differ = (key: EInvoiceCheckKey, computed: number, stated: number) => {
    if (Math.abs(roundMoney(computed - stated)) >= 0.01) found.push({ key, params: { computed: roundMoney(computed), stated: roundMoney(stated) } });
  };
  if (invoice.lines.length) {
    const lines = sum(invoice.lines.map((line) => line.net));
    differ('einvoice.linesMismatch', lines - (totals.allowances ?? 0) + (totals.charges ?? 0), totals.net);
  }
  if (invoice.taxes.length) differ('einvoice.taxesMismatch', sum(invoice.taxes.map((tax) => tax.amount)), totals.tax);
  differ('einvoice.totalMismatch', totals.net + totals.tax - (totals.withheld ?? 0), totals.total);
  if (totals.payable !== undefined && totals.prepaid !== undefined) differ('einvoice.payableMismatch', totals.total - totals.prepaid + (totals.rounding ?? 0), totals.payable);
  return found;
}

/** What could be checked of an e-invoice read (issue 55), said beside the form's fields; none blocks registering it. */
export interface EInvoiceChecks {
  /** The sums that do not add up, to the cent (checkTotals). */
  totals: EInvoiceInconsistency[];
  /** Its syntax's official schema (XSD): valid, or the first errors with their lines; null when it could not be checked. */
  schema: { valid: boolean; errors: string[] } | null;
  /** A FacturaE's XAdES signature: who signed it, none, or why it does not verify. Absent for the other formats. */
  signature?: { status: 'unsigned' } | { status: 'valid'; signer: string; issuer: string; signedAt?: string } | { status: 'invalid'; reason: string };
  /**
   * The buyer's tax id against the user's companies': one of them ('ours'), another ('other', a warning: the invoice
   * may be someone else's), or not said by the invoice ('unknown').
   */
  buyer: 'ours' | 'other' | 'unknown';
}

/** An e-invoice as a reading answers it: what it says, where it was found, and what could be checked. */
export type EInvoiceReading = EInvoice & {
  /** The PDF's attachment it was read from ('factur-x.xml'); absent for an XML file. */
  attachment?: string;
  checks: EInvoiceChecks;
};

/** The longest name a bill line is registered with (the moves' reference field). */
export const BILL_LINE_NAME_MAX = 500;

/** A line of a bill registered from an e-invoice (issue 55): as POST /odoo/moves/create's `lines` carries it. */
export interface BillLine {
  description: string;
  quantity: number;
  unitPrice: number;
  /** The line's amount before taxes, as the invoice states it. */
  net: number;
  /** Its VAT rate (%): the company's purchase tax of that rate is put on it. */
  taxRate: number;
}

/** The total of bill lines with their taxes, each line's tax rounded to the cent (Odoo's round per line). */
export function linesTotal(lines: readonly BillLine[]): number {
  return roundMoney(lines.reduce((total, line) => total + roundMoney(line.net) + roundMoney((line.net * line.taxRate) / 100), 0));
}

/**
 * The lines an e-invoice can be registered with, or null when its lines alone cannot make its total: a line without
 * a VAT rate, discounts or charges on the whole document, withholdings (IRPF), or lines and taxes that do not add up
 * to the total. The single-total bill is then the way.
 */
export function billLinesOf(invoice: EInvoice): BillLine[] | null {
  const { totals } = invoice;
  if (!invoice.lines.length || invoice.withholdings?.length || totals.withheld || totals.allowances || totals.charges) return null;
  if (invoice.lines.some((line) => line.taxRate === undefined || line.net < 0 || !(line.quantity > 0) || line.unitPrice < 0 || !line.description.trim())) return null;
  // A bill line's name is one line of at most BILL_LINE_NAME_MAX characters (a FacturaE's may be 2,500 and several).
  const name = (description: string) => description.replace(/\s+/g, ' ').trim().slice(0, BILL_LINE_NAME_MAX);
  const lines = invoice.lines.map((line) => ({ description: name(line.description), quantity: line.quantity, unitPrice: line.unitPrice, net: roundMoney(line.net), taxRate: line.taxRate! }));
  return Math.abs(linesTotal(lines) - totals.total) <= 0.005 * lines.length + 0.005 ? lines : null;
}
