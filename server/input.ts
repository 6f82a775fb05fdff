/**
 * How a refused route input is worded (issues 15 and 27): each route's zod schema is checked with `inputMessage` as the
 * parse's error map, so every rule a schema leaves unworded still names itself ("must be at most 200 characters",
 * "must be a number", "is required", "must be text or a number"). Each rule is a message key of server/messages.ts
 * with its parameters, carried in the issue's message (encodeRule), so the answer can say it in the request's
 * language; a schema that words a rule its own way ('The name is required') keeps that wording as the API's.
 * The answer is `<field>: <rule>` (server/plugins/refusals.ts).
 */
import { z } from 'zod';
import { MAX_ID } from '../shared/domain/constants';
import { textFault, type TextFault } from '../shared/domain/text';
import { decodeRule, encodeRule, type MessageKey, type MessageParams, type Rule } from './messages';

type Issue = z.core.$ZodRawIssue | z.core.$ZodIssue;
type IssueOf<C extends string> = Extract<z.core.$ZodRawIssue, { code: C }>;

/** The type of a received value, by the names the messages translate (server/messages.ts TYPE_NAMES). */
function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

const quoted = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** Literal alternatives that only say a value may be left empty (null, false, ''): not named among the types. */
const EMPTY_LITERALS = new Set<unknown>([null, false, '', undefined]);
const bound = (value: unknown) => (typeof value === 'bigint' ? Number(value) : value instanceof Date ? value.getTime() : Number(value));

function typeRule(issue: IssueOf<'invalid_type'>): Rule {
  const input = issue.input;
  if (input === undefined) return { key: 'validation.required' };
  // JSON's 1e400 is Infinity: a number too big (or too small), not "no number".
  if (typeof input === 'number' && !Number.isFinite(input)) return { key: input > 0 ? 'validation.tooBig' : 'validation.tooSmall' };
  if (issue.expected === 'int' && typeof input === 'number') return { key: 'validation.integer' };
  return { key: 'validation.type', params: { expected: [`t:${issue.expected}`], received: received(input) } };
}

function sizeRule(issue: IssueOf<'too_big' | 'too_small'>): Rule {
  const big = issue.code === 'too_big';
  const limit = bound(big ? (issue as { maximum: unknown }).maximum : (issue as { minimum: unknown }).minimum);
  const exact = issue.exact;
  switch (issue.origin) {
    case 'string':
      if (!big && limit === 1) return { key: 'validation.empty' };
      if (exact) return { key: 'validation.textLength', params: { length: limit } };
      return big ? { key: 'validation.textMax', params: { maximum: limit } } : { key: 'validation.textMin', params: { minimum: limit } };
    case 'array':
    case 'set':
      if (exact) return { key: 'validation.itemsExact', params: { count: limit } };
      return big ? { key: 'validation.itemsMax', params: { maximum: limit } } : { key: 'validation.itemsMin', params: { minimum: limit } };
    default:
      if (issue.inclusive === false) return big ? { key: 'validation.lessThan', params: { maximum: limit } } : { key: 'validation.greaterThan', params: { minimum: limit } };
      return big ? { key: 'validation.max', params: { maximum: limit } } : { key: 'validation.min', params: { minimum: limit } };
  }
}

function formatRule(issue: IssueOf<'invalid_format'>): Rule {
  switch (issue.format) {
    case 'email':
      return { key: 'validation.email' };
    case 'url':
      return { key: 'validation.url' };
    case 'date':
      return { key: 'validation.date' };
    case 'datetime':
      return { key: 'validation.datetime' };
    case 'regex':
      return { key: 'validation.pattern', params: { pattern: (issue as { pattern?: string }).pattern ?? 'its pattern' } };
    default:
      return { key: 'validation.format', params: { format: issue.format } };
  }
}

/**
 * A union none of whose alternatives took the value: when the value had one alternative's type but broke its rule
 * (an id of -1 among "text or id"), that rule, at the path it concerns; else the types it may have ("must be text or
 * a number").
 */
function unionRule(issue: IssueOf<'invalid_union'>): Rule {
  const branches = ((issue as { errors?: z.core.$ZodIssue[][] }).errors ?? []) as z.core.$ZodIssue[][];
  const typeOnly = (issues: z.core.$ZodIssue[]) => {
    const first = issues[0];
    if (!first) return true;
    if (first.code === 'invalid_type' && first.path.length === 0) return !(first.expected === 'int' && typeof issue.input === 'number');
    return first.code === 'invalid_value' && first.path.length === 0 && (first as { values: unknown[] }).values.every((value) => EMPTY_LITERALS.has(value));
  };
  const matched = branches.find((issues) => !typeOnly(issues));
  if (matched) {
    const first = matched[0];
    const rule = decodeRule(first.message);
    const subpath = [...first.path.map((part) => (typeof part === 'symbol' ? String(part) : part)), ...(rule.subpath ?? [])];
    return subpath.length ? { ...rule, subpath } : rule;
  }
  // Each alternative by the name the messages give it, once: t:<type> or v:<literal value>.
  const expected = new Map<string, string>();
  for (const issues of branches) {
    const first = issues[0] as (z.core.$ZodIssue & { expected?: string; values?: unknown[] }) | undefined;
    if (first?.code === 'invalid_type' && first.expected && !EMPTY_LITERALS.has(first.expected === 'null' ? null : first.expected)) {
      const type = first.expected === 'tuple' ? 'array' : first.expected === 'record' ? 'object' : first.expected;
      expected.set(`t:${type}`, `t:${type}`);
    } else if (first?.code === 'invalid_value') {
      for (const value of first.values ?? []) if (!EMPTY_LITERALS.has(value)) expected.set(`v:${quoted(value)}`, `v:${quoted(value)}`);
    }
  }
  if (issue.input === undefined) return { key: 'validation.required' };
  if (!expected.size) return { key: 'validation.invalid' };
  return { key: 'validation.type', params: { expected: [...expected.values()], received: received(issue.input) } };
}

/** The rule an issue breaks, as a message key and its parameters; undefined for one zod words best itself. */
export function describeIssue(issue: Issue): Rule | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return typeRule(issue as IssueOf<'invalid_type'>);
    case 'too_big':
    case 'too_small':
      return sizeRule(issue as IssueOf<'too_big' | 'too_small'>);
    case 'invalid_value': {
      const values = (issue as { values: unknown[] }).values;
      return values.length === 1 ? { key: 'validation.equals', params: { value: quoted(values[0]) } } : { key: 'validation.oneOf', params: { values: values.map(quoted) } };
    }
    case 'invalid_format':
      return formatRule(issue as IssueOf<'invalid_format'>);
    case 'not_multiple_of':
      return { key: 'validation.multipleOf', params: { divisor: bound((issue as { divisor: unknown }).divisor) } };
    case 'unrecognized_keys':
      return { key: 'validation.unknownFields', params: { keys: (issue as { keys: string[] }).keys } };
    case 'invalid_union':
      return unionRule(issue as IssueOf<'invalid_union'>);
    default:
      return undefined;
  }
}

/** The parse error map of route inputs: every rule a schema did not word itself, as its message key. */
export function inputMessage(issue: z.core.$ZodRawIssue): string | undefined {
  try {
    const rule = describeIssue(issue);
    return rule && encodeRule(rule);
  } catch {
    // A message is never worth a failed request: zod's own wording then.
    return undefined;
  }
}

/** The keys of rules, which the answer words after the field they concern. */
export type RuleKey = Extract<MessageKey, `validation.${string}`>;

/** A rule's message for a schema: its key and parameters, and the API's own wording of it when it has one. */
export function rule(key: RuleKey, params?: MessageParams, api?: string): string {
  return encodeRule({ key, ...(params ? { params } : {}), ...(api !== undefined ? { api } : {}) });
}

/**
 * A check's message worded the route's own way for the API ('An order has at most 200 lines'), keyed by the rule the
 * value broke (validation.itemsMax, maximum 200), so a person reads it in their language.
 */
export function worded(api: string) {
  return {
    error: (issue: z.core.$ZodRawIssue) => {
      const described = describeIssue(issue) ?? { key: 'validation.invalid' as const };
      return encodeRule({ ...described, api });
    },
  };
}

/**
 * A message for a value missing or of the wrong type only; a value of the right type that breaks a rule (too long,
 * too big, not positive) gets the rule's own message instead of, say, "amount must be a number" for 1e10.
 */
export function whenNotGiven(api: string) {
  // JSON's 1e400 arrives as Infinity: a number too big, worded by the route's messages.
  return (issue: { code: string; input?: unknown }) =>
    issue.code === 'invalid_type' && !(typeof issue.input === 'number' && !Number.isFinite(issue.input))
      ? encodeRule({ ...(describeIssue(issue as z.core.$ZodRawIssue) ?? { key: 'validation.invalid' }), api })
      : undefined;
}

const NOT_AN_ID = rule('validation.id');

/**
 * A record id (1..2^31-1) whose every refusal says so: 0, -1, 1.5, 2^31 and 1e400 are each "is not a valid id";
 * `missing` words a value left out or of another type for the API (else "is required", "must be a number, not text").
 */
export function validId(missing?: string) {
  return z
    .number({
      error: (issue) => {
        if (issue.code !== 'invalid_type') return undefined;
        if (typeof issue.input === 'number') return NOT_AN_ID;
        return missing === undefined ? undefined : encodeRule({ ...(describeIssue(issue) ?? { key: 'validation.invalid' }), api: missing });
      },
    })
    .int(NOT_AN_ID)
    .positive(NOT_AN_ID)
    .max(MAX_ID, NOT_AN_ID);
}

const TEXT_FAULTS: Readonly<Record<TextFault, RuleKey>> = {
  lineBreak: 'validation.lineBreak',
  control: 'validation.controlChars',
  direction: 'validation.directionChars',
};

const refusesFaults = (multiline: boolean) => (value: string, context: z.RefinementCtx<string>) => {
  const fault = textFault(value, multiline);
  if (fault) context.addIssue({ code: 'custom', message: rule(TEXT_FAULTS[fault]), input: value });
};

/**
 * Text of a one-line field (a name, a concept, a reference, an e-mail, a search): refused with the field's name when
 * it holds a line break, a control character or a direction override (shared/domain/text textFault, issue 29). The
 * check comes before any trim, so a line break at an end is refused rather than quietly cut. Chain .trim(), .max()...
 */
export function singleLine(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).superRefine(refusesFaults(false));
}

/** Text of a multi-line field (notes, comments): line breaks and tabs kept, other controls and overrides refused. */
export function multiLine(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).superRefine(refusesFaults(true));
}
