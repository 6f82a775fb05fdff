/**
 * What each format's reader gives (an e-invoice before its kind and label are settled) and how it is finished: a
 * document whose total is negative is the other kind with its amounts turned positive (a negative invoice credits,
 * as Peppol's negative-invoice correction does; a FacturaE rectificativa that lowers the amount is negative).
 */
import type { EInvoice, EInvoiceLine, EInvoiceTax, EInvoiceTotals } from '../../shared/domain/einvoice';
import { roundMoney } from '../../shared/domain/money';

export type EInvoiceDraft = Omit<EInvoice, 'kind' | 'label'> & {
  /** The document's type says it credits (UBL CreditNote, type code 381...). */
  credit: boolean;
};

const turn = (value: number | undefined) => (value === undefined ? undefined : roundMoney(-value));

function turnLine(line: EInvoiceLine): EInvoiceLine {
  // The quantity carries the sign when it is negative (Peppol's negative lines), else the price does.
  const byQuantity = line.quantity < 0;
  return { ...line, net: roundMoney(-line.net), quantity: byQuantity ? roundMoney(-line.quantity, 6) : line.quantity, unitPrice: byQuantity ? line.unitPrice : roundMoney(-line.unitPrice, 6) };
}

const turnTax = (tax: EInvoiceTax): EInvoiceTax => ({ ...tax, base: roundMoney(-tax.base), amount: roundMoney(-tax.amount) });

function turnTotals(totals: EInvoiceTotals): EInvoiceTotals {
  const turned = Object.fromEntries(Object.entries(totals).map(([name, value]) => [name, turn(value)]));
  return turned as unknown as EInvoiceTotals;
}

/** Drops the keys whose value is undefined (an absent element), so that what is read compares and serialises cleanly. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, one]) => one !== undefined)) as T;
}

export function finishDraft({ credit, ...draft }: EInvoiceDraft, label: string): EInvoice {
  const negative = draft.totals.total < 0;
  const invoice: EInvoice = { ...draft, label, kind: credit !== negative ? 'creditNote' : 'invoice' };
  const turned = negative
    ? {
        ...invoice,
        lines: invoice.lines.map(turnLine),
        taxes: invoice.taxes.map(turnTax),
        withholdings: invoice.withholdings?.map(turnTax),
        totals: turnTotals(invoice.totals),
      }
    : invoice;
  return defined({
    ...turned,
    seller: defined({ ...turned.seller }),
    buyer: defined({ ...turned.buyer }),
    lines: turned.lines.map((line) => defined(line)),
    taxes: turned.taxes.map((tax) => defined(tax)),
    withholdings: turned.withholdings?.length ? turned.withholdings.map((tax) => defined(tax)) : undefined,
    totals: defined(turned.totals),
  });
}
