/**
 * Parses JSON a person wrote or exported, and says where it is broken without quoting it.
 *
 * V8's own message quotes the text around the problem (`Unexpected token 's', ..."tSecret":
 * sk_live_ab"... is not valid JSON`). A provisioning file with a secret pasted in by mistake
 * would then put part of that secret into an error the station shows and may log, so the quote
 * is dropped and the place is given as a line and column instead.
 */
export function parseJsonText(
  text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    return { ok: false, message: describeJsonError(body, error) };
  }
}

export function describeJsonError(text: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  // Everything from the first quote of the text on is V8 repeating the input.
  const quoted = raw.search(/,? *(\.\.\.)?"/);
  let message = (quoted >= 0 ? raw.slice(0, quoted) : raw)
    .replace(/ *\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+| at position \d+/, '')
    .trim();
  let position = Number(/at position (\d+)/.exec(raw)?.[1] ?? NaN);
  const token = /^Unexpected token '(.+?)', (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON/.exec(
    raw,
  );
  if (token) {
    message = 'Unexpected text (a value must be a number, true, false, null, or in double quotes)';
    // V8 shows up to 10 characters before the culprit when it cuts the text short.
    const at = text.indexOf(token[3]!);
    if (at >= 0) position = token[2] ? at + 10 : at + token[3]!.indexOf(token[1]!);
  }
  const end = text.trimEnd();
  if (/^Unexpected end of JSON input|^Unterminated string/.test(raw) || position >= end.length) {
    // The text stops inside an object, an array or a string: a file cut short (a copy that
    // did not finish, an export that failed halfway). Said where it stops.
    const line = end.split('\n').length;
    return `it ends in the middle, at line ${line}: the file looks cut short (copied or saved only in part)`;
  }
  if (!Number.isInteger(position) || position < 0) return message;
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message} at line ${line}, column ${column}`;
}
