import type { ShipResult } from './types.js';

/** A call refused before anything happened, with a code and the packer's sentence. */
export const invalid = (
  code: string,
  message: string,
): Extract<ShipResult, { outcome: 'invalid' }> => ({
  outcome: 'invalid',
  failure: { code, message },
});
