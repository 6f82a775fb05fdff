/** Plain text of a chatter body: tags dropped, entities decoded. The body is never inserted as HTML. */
export function plainText(html: unknown): string {
  if (typeof html !== 'string') return '';
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** Spec section 2: the first 100 characters of the earliest non-empty message (oldest first), or null. */
export function commentPreview(messages: ReadonlyArray<{ body: unknown }>, length = 100): string | null {
  const first = messages.map((message) => plainText(message.body)).find((text) => text.length > 0);
  return first ? first.slice(0, length) : null;
}
