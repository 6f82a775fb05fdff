import sharp from 'sharp';

/**
 * A receipt "photo" for the document readers' tests: dark text on off-white paper, rendered from SVG, slightly
 * blurred, JPEG. Read, it gives total 5,70 and date 21/11/2026 (`lines`: others, printed the same way).
 */
export async function receiptPhoto(lines = ['CAFETERIA LA PLAZA S.L.', 'NIF B28765432', 'TICKET 0042', 'FECHA 21/11/2026 09:14', '2 CAFE CON LECHE 3,20', '1 TOSTADA 2,50', 'TOTAL 5,70 EUR', 'GRACIAS POR SU VISITA']): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="${120 + lines.length * 60}"><rect width="100%" height="100%" fill="#f4f1ea"/>${lines
    .map((line, at) => `<text x="50" y="${90 + at * 60}" font-family="DejaVu Sans Mono, monospace" font-size="32" fill="#202020">${line}</text>`)
    .join('')}</svg>`;
  return sharp(Buffer.from(svg)).blur(0.6).jpeg({ quality: 85 }).toBuffer();
}
