import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/core/logging/redact.js';
import { describeLeadAction } from '../../../src/core/users/session.js';

describe('the log keeps the words of a refusal about a password', () => {
  it("keeps a lead's approval sentence whole, and still hides a password's value", () => {
    const redactor = new Redactor({});
    const said = `A shift lead must approve ${describeLeadAction({ kind: 'site-store' })} (lead, scan your badge at this station: it then goes ahead by itself). Nothing was done yet.`;
    expect(redactor.text(said)).toBe(said);
    expect(redactor.text('password: hunter22')).toBe('password: [redacted]');
  });
});
