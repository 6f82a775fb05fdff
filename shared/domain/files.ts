/**
 * Attachment type guessed from the start of the base64 data (spec section 5, attachment type): PDF, PNG, JPEG,
 * else generic binary. Accepts bare base64 or a data URL.
 */
export type SniffedType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'application/octet-stream';

const SIGNATURES: Array<[prefix: string, type: SniffedType]> = [
  ['JVBERi0', 'application/pdf'], // %PDF-
  ['iVBORw0KGgo', 'image/png'], // \x89PNG\r\n\x1a\n
  ['/9j/', 'image/jpeg'], // \xff\xd8\xff
];

export function base64Payload(data: string): string {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  return (comma >= 0 ? data.slice(comma + 1) : data).trim();
}

export function sniffBase64(data: string | null | undefined): SniffedType {
  if (!data) return 'application/octet-stream';
  const payload = base64Payload(data);
  return SIGNATURES.find(([prefix]) => payload.startsWith(prefix))?.[1] ?? 'application/octet-stream';
}

/** Whether the console can show the file inline (the others get the spec's unsupported-format message). */
export function isPreviewable(type: SniffedType): boolean {
  return type !== 'application/octet-stream';
}
