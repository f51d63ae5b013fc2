/**
 * Text as a search compares it: lower case, accents and other combining marks dropped, and the
 * few Latin letters that do not decompose spelt out, so "jose" finds "José", "muller" finds
 * "MÜLLER", "orsted" finds "Ørsted" and "strasse" finds "Straße".
 */
const SPELT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};
const NOT_DECOMPOSED = new RegExp(`[${Object.keys(SPELT).join('')}]`, 'g');

export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(NOT_DECOMPOSED, (c) => SPELT[c]!);
}

/**
 * What an order is found by in the Orders view's and Pack's search: its number and every text
 * of its ship-to address (name, company, lines, city, postal code, email, phone), folded, one
 * field per line (so a term never matches across two fields, nor the address's field names).
 */
export function orderSearchText(orderNumber: string, shipTo: object): string {
  const texts = Object.values(shipTo).filter((v): v is string => typeof v === 'string');
  return foldForSearch([orderNumber, ...texts].join('\n'));
}

/** A LIKE pattern (ESCAPE '\') that finds `term`, folded, anywhere in a folded text. */
export function foldedLikePattern(term: string): string {
  return `%${foldForSearch(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
