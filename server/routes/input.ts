/**
 * How a refused route input is worded (issue 15): each route's zod schema is checked with `inputMessage` as the
 * parse's error map, so every rule a schema leaves unworded still names itself in plain words ("must be at most 200
 * characters", "must be a number", "is required", "must be text or a number"), and a schema's own message wins. The
 * answer is `<field path>: <message>` (server/app.ts).
 */
import { z } from 'zod';
import { MAX_ID } from '../../shared/domain/constants';

type Issue = z.core.$ZodRawIssue;

/** A type as the messages name it. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  null: 'null',
  date: 'a date',
};

/** The type of a received value, as the messages name it. */
function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return 'true or false';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? 'a number' : typeof value;
}

const limit = (value: number | bigint) => String(value);
const quoted = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** Literal alternatives that only say a value may be left empty (null, false, ''): not named among the types. */
const EMPTY_LITERALS = new Set<unknown>([null, false, '', undefined]);

function typeMessage(issue: Extract<Issue, { code: 'invalid_type' }>): string {
  const input = issue.input;
  if (input === undefined) return 'is required';
  // JSON's 1e400 is Infinity: a number too big (or too small), not "no number".
  if (typeof input === 'number' && !Number.isFinite(input)) return input > 0 ? 'is too big' : 'is too small';
  if (issue.expected === 'int' && typeof input === 'number') return 'must be a whole number';
  return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}, not ${received(input)}`;
}

function sizeMessage(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const big = issue.code === 'too_big';
  const bound = limit(big ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum);
  const exact = issue.exact;
  switch (issue.origin) {
    case 'string':
      if (!big && bound === '1') return 'must not be empty';
      return exact ? `must be ${bound} characters long` : `must be ${big ? 'at most' : 'at least'} ${bound} characters`;
    case 'array':
    case 'set':
      return exact ? `must have ${bound} items` : `must have ${big ? 'at most' : 'at least'} ${bound} item${bound === '1' ? '' : 's'}`;
    default:
      if (issue.inclusive === false) return `must be ${big ? 'less' : 'greater'} than ${bound}`;
      return `must be ${big ? 'at most' : 'at least'} ${bound}`;
  }
}

function formatMessage(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  switch (issue.format) {
    case 'email':
      return 'must be an e-mail address';
    case 'url':
      return 'must be a web address';
    case 'date':
      return 'must be a date YYYY-MM-DD';
    case 'datetime':
      return 'must be a date and time';
    case 'regex':
      return `must match ${issue.pattern ?? 'its pattern'}`;
    default:
      return `must be ${issue.format}`;
  }
}

/**
 * A union none of whose alternatives took the value: when the value had one alternative's type but broke its rule
 * (an id of -1 among "text or id"), that rule; else the types it may have ("must be text or a number").
 */
function unionMessage(issue: Extract<Issue, { code: 'invalid_union' }>): string {
  const branches = (issue.errors ?? []) as z.core.$ZodIssue[][];
  const typeOnly = (issues: z.core.$ZodIssue[]) => {
    const first = issues[0];
    if (!first) return true;
    if (first.code === 'invalid_type' && first.path.length === 0) return !(first.expected === 'int' && typeof issue.input === 'number');
    return first.code === 'invalid_value' && first.path.length === 0 && (first as { values: unknown[] }).values.every((value) => EMPTY_LITERALS.has(value));
  };
  const matched = branches.find((issues) => !typeOnly(issues));
  if (matched) {
    const first = matched[0];
    return first.path.length ? `${first.path.join('.')}: ${first.message}` : first.message;
  }
  const expected = new Set<string>();
  for (const issues of branches) {
    const first = issues[0] as (z.core.$ZodIssue & { expected?: string; values?: unknown[] }) | undefined;
    if (first?.code === 'invalid_type' && first.expected && !EMPTY_LITERALS.has(first.expected === 'null' ? null : first.expected)) {
      expected.add(TYPE_NAMES[first.expected] ?? first.expected);
    } else if (first?.code === 'invalid_value') {
      for (const value of first.values ?? []) if (!EMPTY_LITERALS.has(value)) expected.add(quoted(value));
    }
  }
  const names = [...expected];
  if (issue.input === undefined) return 'is required';
  if (!names.length) return 'is not valid';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return `must be ${list}, not ${received(issue.input)}`;
}

/** The parse error map of route inputs: a message for every rule a schema did not word itself. */
export function inputMessage(issue: Issue): string | undefined {
  try {
    switch (issue.code) {
      case 'invalid_type':
        return typeMessage(issue);
      case 'too_big':
      case 'too_small':
        return sizeMessage(issue);
      case 'invalid_value':
        return issue.values.length === 1 ? `must be ${quoted(issue.values[0])}` : `must be one of: ${issue.values.map(quoted).join(', ')}`;
      case 'invalid_format':
        return formatMessage(issue);
      case 'not_multiple_of':
        return `must be a multiple of ${issue.divisor}`;
      case 'unrecognized_keys':
        return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      case 'invalid_union':
        return unionMessage(issue);
      default:
        return undefined;
    }
  } catch {
    // A message is never worth a failed request: zod's own wording then.
    return undefined;
  }
}

/**
 * A record id (1..2^31-1) whose every refusal says so: 0, -1, 1.5, 2^31 and 1e400 are each "is not a valid id";
 * `missing` words a value left out or of another type (else "is required", "must be a number, not text").
 */
export function validId(missing?: string) {
  return z
    .number({ error: (issue) => (issue.code !== 'invalid_type' ? undefined : typeof issue.input === 'number' ? 'is not a valid id' : missing) })
    .int('is not a valid id')
    .positive('is not a valid id')
    .max(MAX_ID, 'is not a valid id');
}
