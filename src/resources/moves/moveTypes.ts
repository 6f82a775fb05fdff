/** The Move page's shapes: what the form holds, and what the reference lists and a document reading bring. */
export type MoveType = 'expense' | 'invoice';
export interface Setting { journal_id: number | false; account: string | false }
export interface Project { id: number; name: string; facturas: Setting; gastos: Setting }
export interface Company { id: number; name: string; facturas: Setting; gastos: Setting; projects: Project[] }
export interface Provider { id: number; name: string }

/** What the form holds; the creation payload (spec section 3) is built from it on send. */
export interface MoveValues {
  company_id: number | '';
  project: number | '';
  partner_id: number | '';
  concept: string;
  /** The number read from the box (typed in the user's language), the text typed while it is no amount, or null. */
  amount: number | string | null;
  paymentMethod: string;
  paymentStatus: 'paid' | 'unpaid';
  /** The ISO day, or the text typed while it is no date. */
  date: string | null;
  comment: string;
  file: File | null;
}

/** The fields a document reading can fill (the supplier is `provider`, as the reading names it). */
export type AiField = 'amount' | 'date' | 'concept' | 'provider';

/** The printed rows the amount and the date were read from. */
export interface ReadLines { importe?: string; date?: string }

/** What a reading says of the supplier: its name and tax id as read. */
export interface SupplierRead {
  provider?: string;
  vat?: string;
  /** Issue 55: the issuer's address as its e-invoice gives it, for the supplier created from it. */
  address?: { street?: string; city?: string; postalCode?: string; country?: string };
  /** How sure the reading is of the name, 0-1 (issue 51); absent when not in doubt (a PDF's text). */
  confidence?: number;
  /**
   * Issue 52: the company's own supplier the server found on the document (its id; `provider` is then its stored
   * name), for the company the reading was asked for.
   */
  id?: number;
  company?: number;
  /** The name as read, when the server found the supplier by a name read otherwise. */
  read?: string;
}

/**
 * A supplier read from the document that no stored supplier matches. `near`: a stored supplier whose name is the one
 * read but for an OCR slip or two was chosen instead.
 */
export interface UnmatchedSupplier { name: string; vat?: string; near?: boolean; unsure?: boolean; address?: SupplierRead['address'] }

/** How a value the page writes into the form counts: as changed, and checked again once a send was tried. */
export interface WriteOptions { shouldDirty: boolean; shouldValidate: boolean }

/** The company-scoped supplier search (spec section 7, POST /odoo/providers/search). */
export type SupplierSearch = (body: { companyId: number; name?: string; vat?: string }) => Promise<Provider[]>;

/** A move as the moves list reads it (its detail, cards and duplicate warnings show it). */
export interface ListedMove {
  id: number;
  name: string;
  ref: string | false;
  date: string;
  amount_total: number;
  state: string;
  comment: string;
  company_id: [number, string];
  partner_id: [number, string] | false;
  attachment_ids: number[];
}
