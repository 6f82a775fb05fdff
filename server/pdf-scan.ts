/**
 * What a PDF holds beyond its pages (issue 29, item 8), read from the whole file without rendering it: the names of
 * active content (JavaScript, launch actions, embedded files, rich media) in its objects, those packed into
 * compressed object streams included, and how much its compressed streams unpack to, counted up to a cap so that a
 * small file that inflates to gigabytes is found without being held whole.
 */
import { constants, inflateSync } from 'node:zlib';

/**
 * The most a stored PDF's streams may unpack to, together: a 50-megapixel scan unpacks to 200 MB at most (4
 * channels), the readings' pixel limit; more is a bomb.
 */
export const MAX_PDF_INFLATED_BYTES = 256 * 1024 * 1024;

/**
 * Names that make a PDF do something when opened or clicked rather than be looked at: scripts (a JavaScript action,
 * /JS its code, an /OpenAction or /AA running one is found by these), launching a program, files carried inside,
 * Flash or video players.
 */
export const ACTIVE_NAMES = ['JS', 'JavaScript', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia'] as const;
const ACTIVE = new Set<string>(ACTIVE_NAMES);

export interface PdfScan {
  /** The active names found, each once, in the order of ACTIVE_NAMES. */
  active: string[];
  /** Bytes the compressed streams unpack to, counted up to the cap. */
  inflated: number;
  /** The streams unpack to more than the cap. */
  overflow: boolean;
  /** The file is encrypted: its object streams cannot be read here (pdf.js, which decrypts, is asked instead). */
  encrypted: boolean;
}

/** A PDF name (after its slash) as the reader sees it: `#4A#53` is `JS`. */
const decodeName = (raw: string) => raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function namesIn(text: string, found: Set<string>): void {
  for (const match of text.matchAll(/\/([^\s()<>[\]{}/%]+)/g)) {
    const name = decodeName(match[1]);
    if (ACTIVE.has(name)) found.add(name);
  }
}

/** The filters of a stream's dictionary, in order (`/Filter /FlateDecode` or `/Filter [/ASCIIHexDecode /FlateDecode]`). */
function filtersOf(dictionary: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary);
  if (!match) return [];
  return [...match[1].matchAll(/\/([^\s/[\]<>()]+)/g)].map((one) => decodeName(one[1]));
}

function asciiHex(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/\s/g, '');
  const end = text.indexOf('>');
  const hex = end >= 0 ? text.slice(0, end) : text;
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
}

function ascii85(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/\s/g, '').replace(/^<~/, '');
  const end = text.indexOf('~>');
  const body = end >= 0 ? text.slice(0, end) : text;
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    const value = group.reduce((sum, digit) => sum * 85 + digit, 0);
    const bytes = [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    out.push(...bytes.slice(0, count));
    group = [];
  };
  for (const char of body) {
    if (char === 'z' && !group.length) {
      out.push(0, 0, 0, 0);
      continue;
    }
    group.push(char.charCodeAt(0) - 33);
    if (group.length === 5) flush(4);
  }
  if (group.length) flush(group.length - 1);
  return Buffer.from(out);
}

/**
 * Scans the whole file: every object's dictionary outside stream data, and the decoded text of object streams
 * (/Type /ObjStm, where compressed PDFs keep their dictionaries); every Flate stream is inflated, up to what is left
 * of MAX_PDF_INFLATED_BYTES, to count what it unpacks to. Streams in filters not decoded here (images' DCT, JPX,
 * CCITT, JBIG2) are counted as they are stored.
 */
export function scanPdf(buffer: Buffer, maxInflated = MAX_PDF_INFLATED_BYTES): PdfScan {
  const text = buffer.toString('latin1');
  const found = new Set<string>();
  let inflated = 0;
  let overflow = false;
  let outside = 0;
  const streams = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  for (let match = streams.exec(text); match; match = streams.exec(text)) {
    const start = match.index + match[0].length;
    const dictionaryStart = Math.max(text.lastIndexOf(' obj', match.index), outside);
    const dictionary = text.slice(dictionaryStart, match.index);
    // The object's dictionary is scanned with the text around it; the stream's data is not text.
    namesIn(text.slice(outside, match.index), found);
    const declared = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
    const byLength = declared ? start + Number(declared[1]) : -1;
    const endAt = byLength >= start && byLength <= text.length && /^\s*endstream/.test(text.slice(byLength, byLength + 32)) ? byLength : text.indexOf('endstream', start);
    const end = endAt < 0 ? text.length : endAt;
    outside = end;
    streams.lastIndex = end;
    if (overflow) continue;
    let data: Buffer = buffer.subarray(start, end);
    for (const filter of filtersOf(dictionary)) {
      if (filter === 'FlateDecode' || filter === 'Fl') {
        const left = maxInflated - inflated;
        try {
          data = inflateSync(data, { maxOutputLength: Math.max(1, left + 1), finishFlush: constants.Z_SYNC_FLUSH });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') overflow = true;
          // Damaged data: a viewer cannot unpack it either.
          data = Buffer.alloc(0);
          break;
        }
        inflated += data.length;
        if (inflated > maxInflated) overflow = true;
      } else if (filter === 'ASCIIHexDecode' || filter === 'AHx') data = asciiHex(data);
      else if (filter === 'ASCII85Decode' || filter === 'A85') data = ascii85(data);
      else break;
    }
    if (overflow) continue;
    if (/\/Type\s*\/ObjStm\b/.test(dictionary)) namesIn(data.toString('latin1'), found);
  }
  namesIn(text.slice(outside), found);
  return {
    active: ACTIVE_NAMES.filter((name) => found.has(name)),
    inflated: Math.min(inflated, maxInflated),
    overflow,
    encrypted: /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(text),
  };
}
