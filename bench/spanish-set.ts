/**
 * A small Spanish set (issue 17): tickets and invoices with known values, rendered with sharp from SVG and made to
 * look photographed (turned a few degrees, blurred, JPEG quality 60): accents, ñ, €, º, comma decimals, CIF/NIF.
 * Generated on the fly, so it is the same on every machine; scored by bench/extraction.ts for each engine.
 */
import sharp from 'sharp';

export interface SpanishDocument {
  name: string;
  image: Buffer;
  truth: { company: string; taxId: string; date: string; total: string; concept: string };
  /** Words with letters PP-OCR's dictionary lacks, to see whether an engine reads them. */
  special: string[];
}

interface Layout {
  company: string;
  taxId: string;
  lines: string[];
  date: string;
  /** ISO date the printed one means. */
  iso: string;
  /** Amount as a decimal with a dot. */
  total: string;
  totalLine: string;
  invoice: boolean;
  rotate: number;
  special: string[];
}

const LAYOUTS: Layout[] = [
  { company: 'PANADERÍA LA ESPAÑOLA S.L.', taxId: 'B28765432', lines: ['C/ Núñez de Balboa, 12 - 28006 Madrid', 'Ticket nº 0042'], date: '21/11/2026', iso: '2026-11-21', total: '7.85', totalLine: 'TOTAL 7,85 €', invoice: false, rotate: 2, special: ['ESPAÑOLA', 'Núñez', '€'] },
  { company: 'CAFETERÍA MUÑOZ S.L.', taxId: 'B86543210', lines: ['Avda. de la Constitución, 5 - Sevilla', 'Mesa 4   Camarero: Íñigo'], date: '03/02/2026', iso: '2026-02-03', total: '14.20', totalLine: 'TOTAL 14,20 €', invoice: false, rotate: -3, special: ['MUÑOZ', 'Íñigo', '€'] },
  { company: 'FERRETERÍA GONZÁLEZ S.A.', taxId: 'A08123456', lines: ['Pº de Gràcia, 40 - Barcelona', 'Factura simplificada nº FS-2026/118'], date: '15/07/2026', iso: '2026-07-15', total: '1234.56', totalLine: 'TOTAL 1.234,56 €', invoice: false, rotate: 1.5, special: ['GONZÁLEZ', 'Pº', '€'] },
  { company: 'Talleres Peña y Asociados S.L.', taxId: 'B12345674', lines: ['Polígono Industrial La Cañada, nave 7', 'FACTURA Nº 2026-0315', 'Base imponible 250,00 €', 'IVA 21% 52,50 €'], date: '30/09/2026', iso: '2026-09-30', total: '302.50', totalLine: 'Total factura 302,50 €', invoice: true, rotate: -2, special: ['Peña', 'Cañada', '€'] },
  { company: 'Distribuciones Ibáñez S.L.', taxId: 'B98765431', lines: ['C/ Castaños, 3, 3º B - Valencia', 'FACTURA Nº A-77', 'Base imponible 80,00 €', 'IVA 10% 8,00 €'], date: '08/01/2026', iso: '2026-01-08', total: '88.00', totalLine: 'Total factura 88,00 €', invoice: true, rotate: 3, special: ['Ibáñez', 'Castaños', '€'] },
  { company: 'FARMACIA ÁLVAREZ CB', taxId: 'E45678912', lines: ['Plaza de España, 1 - León', 'Ticket 5521   Atendió: Begoña'], date: '12/12/2026', iso: '2026-12-12', total: '23.45', totalLine: 'TOTAL 23,45 €', invoice: false, rotate: -1.5, special: ['ÁLVAREZ', 'España', 'Begoña'] },
];

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The first item line of a ticket and of an invoice: the concept the AI button should fill. */
const TICKET_ITEM = 'Café con leche';
const INVOICE_ITEM = 'Reparación y mantenimiento';

async function render(layout: Layout): Promise<Buffer> {
  const rows: Array<{ text: string; size: number; bold?: boolean }> = [
    { text: layout.company, size: 34, bold: true },
    { text: `${layout.taxId.startsWith('E') || layout.taxId.startsWith('A') || layout.taxId.startsWith('B') ? 'CIF' : 'NIF'}: ${layout.taxId}`, size: 26 },
    ...layout.lines.slice(0, 2).map((text) => ({ text, size: 24 })),
    { text: `Fecha: ${layout.date}  10:42`, size: 26 },
    { text: layout.invoice ? `${INVOICE_ITEM}   1 ud` : `2 ${TICKET_ITEM}      3,40`, size: 24 },
    { text: layout.invoice ? '' : '1 Tostada de jamón      2,95', size: 24 },
    ...layout.lines.slice(2).map((text) => ({ text, size: 24 })),
    { text: layout.totalLine, size: 32, bold: true },
    { text: layout.invoice ? 'Forma de pago: transferencia' : 'Gracias por su visita', size: 24 },
  ].filter((row) => row.text);
  const height = 120 + rows.length * 58;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="820" height="${height}"><rect width="100%" height="100%" fill="#f6f3ec"/>${rows
    .map((row, at) => `<text x="50" y="${80 + at * 58}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${row.size}"${row.bold ? ' font-weight="bold"' : ''} fill="#1e1e1e">${escape(row.text)}</text>`)
    .join('')}</svg>`;
  const flat = await sharp(Buffer.from(svg)).png().toBuffer();
  return sharp(flat).rotate(layout.rotate, { background: '#d8d4cc' }).blur(1.1).jpeg({ quality: 60 }).toBuffer();
}

export async function spanishSet(): Promise<SpanishDocument[]> {
  return Promise.all(
    LAYOUTS.map(async (layout, index) => ({
      name: `es-${String(index + 1).padStart(2, '0')}${layout.invoice ? '-factura' : '-ticket'}`,
      image: await render(layout),
      truth: { company: layout.company, taxId: layout.taxId, date: layout.iso, total: layout.total, concept: layout.invoice ? INVOICE_ITEM : TICKET_ITEM },
      special: layout.special,
    })),
  );
}

if (process.argv[1]?.endsWith('spanish-set.ts')) {
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync('/tmp/spanish-set', { recursive: true });
  for (const document of await spanishSet()) writeFileSync(`/tmp/spanish-set/${document.name}.jpg`, document.image);
  console.log('written to /tmp/spanish-set');
}
