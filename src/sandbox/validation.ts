import { type z } from 'zod';
import { type FieldError, validationError } from './errors.js';

/** `shipment.packages[0].weightLbs` from a zod path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[part];
  }
  return cur;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Turns zod issues into the `errors` entries of the envelope, with messages a person can read. */
export function issuesToFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const field = fieldPath(issue.path);
    switch (issue.code) {
      case 'invalid_type': {
        const actual = valueAt(input, issue.path);
        if (actual === undefined) out.push({ field, message: 'is required', code: 'required' });
        else
          out.push({
            field,
            message: `must be ${expectedWords(String(issue.expected))}, got ${describe(actual)}`,
            code: 'invalid_type',
          });
        break;
      }
      case 'too_small':
        out.push({
          field,
          message:
            issue.origin === 'string'
              ? `must be at least ${issue.minimum} characters`
              : issue.origin === 'array'
                ? `must have at least ${issue.minimum} entries`
                : `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`,
          code: 'too_small',
        });
        break;
      case 'too_big':
        out.push({
          field,
          message:
            issue.origin === 'string'
              ? `must be at most ${issue.maximum} characters`
              : issue.origin === 'array'
                ? `must have at most ${issue.maximum} entries`
                : `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`,
          code: 'too_big',
        });
        break;
      case 'invalid_value':
        out.push({
          field,
          message: `must be one of ${issue.values.map((v) => String(v)).join(', ')}`,
          code: 'invalid_value',
        });
        break;
      case 'invalid_format':
        out.push({ field, message: issue.message, code: 'invalid_format' });
        break;
      default:
        out.push({ field, message: issue.message, code: issue.code ?? 'invalid' });
    }
  }
  return out;
}

/** Parses a request body or throws the 400 envelope listing every bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError(
      [{ field: '', message: 'the request body must be a JSON object', code: 'invalid_type' }],
      'Invalid request: the request body must be a JSON object',
    );
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(issuesToFieldErrors(result.error.issues, body));
  return result.data;
}

/**
 * Like parseBody, but also runs the route's own checks on the raw body, so a 400 lists every
 * bad field at once (schema problems and rule problems together). `rules` sees the raw object
 * and must cope with any shape.
 */
export function parseBodyWithRules<S extends z.ZodType>(
  schema: S,
  body: unknown,
  rules: (raw: Record<string, unknown>) => FieldError[],
): z.output<S> {
  const data = (() => {
    try {
      return { ok: true as const, value: parseBody(schema, body) };
    } catch (error) {
      return { ok: false as const, error };
    }
  })();
  if (!data.ok) {
    const error = data.error as { errors?: FieldError[] };
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !error.errors)
      throw data.error;
    const seen = new Set(error.errors.map((e) => e.field));
    const extra = rules(body as Record<string, unknown>).filter((e) => !seen.has(e.field));
    throw validationError([...error.errors, ...extra]);
  }
  const problems = rules(body as Record<string, unknown>);
  if (problems.length > 0) throw validationError(problems);
  return data.value;
}

/** A nested value of a raw body, or undefined. */
export function rawAt(raw: unknown, ...path: string[]): unknown {
  let cur = raw;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** zod's expected type in words: "an integer", "an array", "a string". */
function expectedWords(expected: string): string {
  const word = expected === 'int' ? 'integer' : expected;
  return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}
