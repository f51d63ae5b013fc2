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
            message: `must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}, got ${describe(actual)}`,
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
