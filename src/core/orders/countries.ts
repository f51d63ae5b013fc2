/**
 * Country names as store exports write them (BigCommerce writes "United States", others a
 * 2-letter code) → the 2-letter code the platform takes. A 2-letter code is kept as it is; a
 * name not listed here is returned unchanged, so the order's schema names it as a bad code.
 */
const NAMES: Record<string, string> = {
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  'u.s.a.': 'US',
  canada: 'CA',
  mexico: 'MX',
  'united kingdom': 'GB',
  'great britain': 'GB',
  uk: 'GB',
  ireland: 'IE',
  australia: 'AU',
  'new zealand': 'NZ',
  germany: 'DE',
  france: 'FR',
  spain: 'ES',
  italy: 'IT',
  netherlands: 'NL',
  'the netherlands': 'NL',
  belgium: 'BE',
  switzerland: 'CH',
  austria: 'AT',
  sweden: 'SE',
  norway: 'NO',
  denmark: 'DK',
  finland: 'FI',
  poland: 'PL',
  portugal: 'PT',
  japan: 'JP',
  'south korea': 'KR',
  china: 'CN',
  'hong kong': 'HK',
  singapore: 'SG',
  india: 'IN',
  brazil: 'BR',
  'puerto rico': 'PR',
};

export function countryCodeOf(value: string): string {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text)) return text.toUpperCase();
  return NAMES[text.toLowerCase()] ?? text;
}
