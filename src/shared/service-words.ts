/**
 * A label's carrier and service level in the words the Rates list uses, the carrier said once:
 * a service level that already starts with its carrier ("USPS_GROUND_ADVANTAGE") is shown alone
 * (until 2026-11-29 Pack's result read "USPS USPS_GROUND_ADVANTAGE"); one that does not
 * ("GROUND_HOME") keeps its carrier before it ("FEDEX GROUND_HOME").
 */
export function serviceWords(carrier: string, serviceLevel: string): string {
  const c = carrier.trim();
  if (!c) return serviceLevel;
  return serviceLevel.toUpperCase().startsWith(`${c.toUpperCase()}_`)
    ? serviceLevel
    : `${c} ${serviceLevel}`;
}
