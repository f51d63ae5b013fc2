import { describe, expect, it } from 'vitest';
import { badgeDigest, hashPin } from '../../../src/core/users/pin.js';
import type { Station } from '../../../src/core/station/index.js';
import { call, demoStationsPerTest, labelsFor, ratedShipment, scanOrder } from './support.js';

// Trial of 2026-11-29: site IT disabled the site's last active users (npm run site -- users
// disable …). Every station then dropped sign-in altogether: nobody was signed in, anyone
// packed, and a second label for an order that had one was bought with Ctrl+Shift+A, no shift
// lead asked: the station took "no active user" for "no users set up".

const stations = demoStationsPerTest();

async function user(s: Station, userId: string, role: 'packer' | 'lead', active = true) {
  s.context.users.upsert({
    userId,
    name: userId.toUpperCase(),
    role,
    badgeSha256: badgeDigest(`BADGE-${userId}`),
    pinHash: await hashPin('4821'),
    active,
  });
}

const rated = ratedShipment;

describe('a station whose users are all disabled', () => {
  it('still asks for a sign-in nobody can give, says why, and buys nothing', async () => {
    const { s, sandbox } = await stations.start();
    await user(s, 'ana', 'packer');
    await user(s, 'bo', 'lead');
    await s.context.session.signIn({ userId: 'ana', pin: '4821' });
    await call(s, 'pack.buy', { shipmentId: await rated(s, 'LUM-10421') });
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);

    // Site IT disables both (copied at the next check-in).
    await user(s, 'ana', 'packer', false);
    await user(s, 'bo', 'lead', false);
    const nobody =
      'Every user of this station is disabled, so nobody can sign in to pack here. Site IT enables one again (npm run site -- users add <id>, which enables a disabled user).';
    expect((await call(s, 'station.status', {})).signInRequired).toBe(true);
    const scan = await scanOrder(s, 'LUM-10421');
    expect(
      await s.dispatch('pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
        confirmAnother: true,
      }),
    ).toEqual({
      ok: false,
      error: {
        code: 'sign-in-required',
        message: `ANA was disabled by site IT and is signed out here. ${nobody}`,
      },
    });
    await expect(s.context.session.signIn({ badge: 'BADGE-bo' })).rejects.toThrow(nobody);
    await expect(s.context.session.signIn({ userId: 'bo', pin: '4821' })).rejects.toThrow(nobody);
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);

    // Site IT enables the lead again: the lead signs in, and buying another label is theirs.
    await user(s, 'bo', 'lead');
    await s.context.session.signIn({ badge: 'BADGE-bo' });
    const another = await call(s, 'pack.buy', {
      shipmentId: await rated(s, 'LUM-10421', true),
      confirmAnother: true,
    });
    expect(another.outcome).toMatch(/^print(ing|ed)$/);
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(2);
  });
});
