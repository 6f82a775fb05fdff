import DOMPurify from 'dompurify';

/**
 * HTML from the ERP (chatter bodies) before it is shown (DESIGN: rules that hold everywhere): scripts, handlers and
 * unsafe URLs removed by DOMPurify; links keep only http(s) and mailto and open apart with noopener noreferrer.
 */
const SAFE_LINK = /^(https?:|mailto:)/i;
let hooked = false;

export function sanitizeHtml(html: unknown): string {
  if (typeof html !== 'string' || !html) return '';
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName !== 'A') return;
      const href = node.getAttribute('href') ?? '';
      if (!SAFE_LINK.test(href.trim())) node.removeAttribute('href');
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'] });
}

/** True when the HTML shows no text at all (the spec lists only non-empty messages). */
export function isBlankHtml(html: unknown): boolean {
  if (typeof html !== 'string') return true;
  const element = document.createElement('div');
  element.innerHTML = sanitizeHtml(html);
  return !(element.textContent ?? '').trim() && !element.querySelector('img');
}
