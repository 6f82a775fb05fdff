/**
 * query-string as the built console uses it (scripts/stand-ins.ts aliases the package here for the build): react-admin
 * writes a list's parameters into the address and reads them back with `stringify` and `parse` of flat objects
 * (ra-core useListParams, useRecordFromLocation, FilterButton, CloneButton, fetchUtils.queryParameters). These do
 * what query-string's defaults do for them (keys sorted, undefined left out, null as a bare key, arrays repeated,
 * RFC 3986 encoding; parsing the same back, '+' as a space, a repeated key as an array) with the platform's URL
 * encoding, where the library is about 2 KB of every page's first load.
 */
type Value = string | number | boolean | null | undefined;

const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

export function stringify(object: Record<string, Value | Value[]>): string {
  const pair = (key: string, value: Value) => (value === null ? encode(key) : `${encode(key)}=${encode(String(value))}`);
  return Object.keys(object)
    .sort()
    .flatMap((key) => {
      const value = object[key];
      if (value === undefined) return [];
      return Array.isArray(value) ? value.filter((one) => one !== undefined).map((one) => pair(key, one)) : [pair(key, value)];
    })
    .join('&');
}

export function parse(search: string): Record<string, string | null | Array<string | null>> {
  const result: Record<string, string | null | Array<string | null>> = Object.create(null);
  for (const part of search.trim().replace(/^[?#&]/, '').split('&')) {
    if (!part) continue;
    const at = part.indexOf('=');
    const key = decode(at === -1 ? part : part.slice(0, at));
    const value = at === -1 ? null : decode(part.slice(at + 1));
    const previous = result[key];
    result[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  const sorted: typeof result = Object.create(null);
  for (const key of Object.keys(result).sort()) sorted[key] = result[key];
  return sorted;
}
