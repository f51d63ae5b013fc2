/**
 * A schema's problem in words for the person at the station or site IT, for zod's own default
 * messages ("Too small: expected number to be >=1", "Invalid input: expected string, received
 * undefined"). A message the schema set itself is kept as it is. The words follow the field's
 * name: "must be at least 1", "is missing", "must be one of "cheapest", "fastest"".
 */
export interface ZodIssueLike {
  code?: string;
  message: string;
  expected?: unknown;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: unknown;
  values?: unknown;
  format?: unknown;
}

const DEFAULT =
  /^(Invalid input|Invalid option|Too small|Too big|Invalid (string|number|email|url))/;

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object ({ … })',
  array: 'a list ([ … ])',
  date: 'a date',
};

export function zodIssueWords(issue: ZodIssueLike): string {
  if (!DEFAULT.test(issue.message)) return issue.message;
  const n = (v: unknown) => Number(v);
  switch (issue.code) {
    case 'invalid_type': {
      if (/received undefined$/.test(issue.message)) return 'is missing';
      const kind = KINDS[String(issue.expected)] ?? String(issue.expected);
      return `must be ${kind}`;
    }
    case 'invalid_value': {
      const values = Array.isArray(issue.values) ? issue.values : [];
      return values.length === 1
        ? `must be ${JSON.stringify(values[0])}`
        : `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = n(small ? issue.minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'string')
        return small && bound === 1
          ? 'must not be empty'
          : `must be ${small ? 'at least' : 'at most'} ${bound} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return small && bound === 1
          ? 'must list at least one'
          : `must list ${small ? 'at least' : 'at most'} ${bound}`;
      return `must be ${small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than'} ${bound}`;
    }
    case 'invalid_format':
      return `is not a valid ${String(issue.format ?? 'value')}`;
    default:
      return issue.message;
  }
}
