/**
 * When two contacts are the same person (issue 27): the same e-mail address, without regard to case, or the same
 * phone number as digits, whatever spaces, dashes, dots or brackets it is written with, and with or without Spain's
 * prefix (+34 or 0034): '+34 600 11 12 22', '600-111-222' and '0034 600111222' are one number.
 */

/** The shortest phone number compared (fewer digits are an extension or a typo, not a number). */
export const MIN_PHONE_DIGITS = 6;

/** An e-mail address as compared: trimmed, in lower case; '' for none. */
export function emailKey(email: unknown): string {
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/** A phone number as compared: its digits without a leading +34 or 0034; '' when too short to compare. */
export function phoneKey(phone: unknown): string {
  if (typeof phone !== 'string') return '';
  const compact = phone.replace(/[^\d+]/g, '');
  const national = compact.replace(/^(\+34|0034)/, '').replace(/\D/g, '');
  return national.length >= MIN_PHONE_DIGITS ? national : '';
}

export type DuplicateMatch = 'email' | 'phone';

/** How a contact matches the e-mail and phone given (both, one or neither). */
export function duplicateMatches(contact: Readonly<Record<string, unknown>>, given: { email?: unknown; phone?: unknown }): DuplicateMatch[] {
  const matches: DuplicateMatch[] = [];
  const email = emailKey(given.email);
  const phone = phoneKey(given.phone);
  if (email && emailKey(contact.email) === email) matches.push('email');
  if (phone && phoneKey(contact.phone) === phone) matches.push('phone');
  return matches;
}
