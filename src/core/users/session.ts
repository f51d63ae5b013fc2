import { badgeDigest, verifyPin } from './pin.js';
import type { LocalUsers } from './local.js';
import type { SignedInUser, UserRecord } from './types.js';

/** Why sign-in or an approval was refused, with a code the station maps onto its contract. */
export class UserError extends Error {
  constructor(
    readonly code: 'sign-in-required' | 'lead-required' | 'validation',
    message: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** What needs a shift lead (issue 14). */
export type LeadAction =
  | { kind: 'buy-another'; orderNumber: string }
  | { kind: 'mark-not-bought'; orderNumber: string }
  | { kind: 'reprint'; orderNumber: string; reprints: number; limit: number }
  | { kind: 'site-store' }
  | { kind: 'resolve-double'; itemId: string }
  | { kind: 'cancel-orders'; orders: number; reopen: boolean }
  | { kind: 'void-label'; trackingNumber: string; undo: boolean }
  | { kind: 'site-setting-override'; setting: string }
  | { kind: 'profile-setting'; what: string; profile: string }
  | { kind: 'close-out'; site: boolean; from: string; to: string }
  | { kind: 'station-setup'; what: string };

export function describeLeadAction(a: LeadAction): string {
  switch (a.kind) {
    case 'buy-another':
      return `buying another label for order ${a.orderNumber}`;
    case 'mark-not-bought':
      return `marking the purchase for order ${a.orderNumber} as not bought`;
    case 'reprint':
      return `reprint ${a.reprints + 1} of order ${a.orderNumber} (the site allows ${a.limit} without a lead)`;
    case 'site-store':
      return "changing this station's site store or its password";
    case 'resolve-double':
      return 'resolving a possible double label';
    case 'cancel-orders':
      return `${a.reopen ? 'reopening' : 'cancelling'} ${a.orders === 1 ? 'an order' : `${a.orders} orders`}`;
    case 'void-label':
      return a.undo
        ? `taking back the voided mark of label ${a.trackingNumber}`
        : `marking label ${a.trackingNumber} voided at the carrier`;
    case 'site-setting-override':
      return `keeping this station's own ${a.setting} instead of the site's`;
    case 'profile-setting':
      return `${a.what} (profile ${a.profile})`;
    case 'station-setup':
      return a.what;
    case 'close-out':
      return `closing out ${a.from === a.to ? a.from : `${a.from} to ${a.to}`} with the carriers${a.site ? " for the whole site (every station's labels)" : ''}`;
  }
}

const FAILURES_BEFORE_PAUSE = 5;
const PAUSE_MS = 30_000;

/** Every user is disabled: nobody may pack here until site IT enables one. */
const NOBODY_ENABLED =
  'Every user of this station is disabled, so nobody can sign in to pack here. Site IT enables one again (npm run site -- users add <id>, which enables a disabled user).';

/**
 * Who is packing at this station, and the shift lead's approvals. With no users set up (a
 * station alone, out of the box) nobody signs in and nothing needs a lead: the station behaves
 * as before. With users, every purchase, reprint and resolution records the signed-in user,
 * and a few actions need a lead: either a lead is signed in, or a lead scans their badge at
 * this station, which approves the next such action (within `approvalMs`).
 */
export class StationSession {
  private user: SignedInUser | null = null;
  /** Why nobody is signed in, when the station signed someone out by itself (disabled). */
  private signedOutWhy: string | null = null;
  private approval: { by: SignedInUser; until: number } | null = null;
  private readonly failures = new Map<string, { count: number; pausedUntil: number }>();

  constructor(
    private readonly o: {
      users: LocalUsers;
      now?: () => number;
      /** How long a lead's badge scan approves the next action (default 2 minutes). */
      approvalMs?: number;
    },
  ) {}

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  /**
   * Users are set up here (or copied from the site): someone must sign in to pack. Disabled
   * users count: a site whose users are all disabled has not turned sign-in and the shift
   * lead's approvals off, it has nobody who may pack.
   */
  required(): boolean {
    return this.o.users.any();
  }

  current(): SignedInUser | null {
    // Disabled or removed meanwhile (site IT; a site's users arrive with a check-in): signed
    // out, and the next packer is told why rather than only to sign in.
    if (this.user && !this.o.users.byId(this.user.userId)) {
      const { userId, name } = this.user;
      this.signedOutWhy = this.o.users.disabled(userId)
        ? `${name} was disabled by site IT and is signed out here.`
        : `${name} is no longer a user here (removed by site IT) and is signed out.`;
      this.user = null;
    }
    return this.user;
  }

  /** Why the station signed its user out by itself (null after a sign-in or sign-out). */
  signedOut(): string | null {
    this.current();
    return this.signedOutWhy;
  }

  /** The name recorded with an action: the signed-in user, or the station's user name. */
  actor(fallback: string): string {
    return this.current()?.name ?? fallback;
  }

  /** Throws sign-in-required when users are set up and nobody is signed in. */
  requireSignedIn(): SignedInUser | null {
    if (!this.required()) return null;
    const user = this.current();
    if (!user)
      throw new UserError(
        'sign-in-required',
        `${this.signedOutWhy ? `${this.signedOutWhy} ` : ''}${this.o.users.count() === 0 ? NOBODY_ENABLED : 'Sign in first: scan your badge, or type your user name and PIN.'}`,
      );
    return user;
  }

  async signIn(input: { badge?: string; userId?: string; pin?: string }): Promise<SignedInUser> {
    const found = await this.identify(input);
    this.user = { userId: found.userId, name: found.name, role: found.role };
    this.approval = null;
    this.signedOutWhy = null;
    return this.user;
  }

  signOut(): void {
    this.user = null;
    this.approval = null;
    this.signedOutWhy = null;
  }

  /** A lead scans their badge (or types id + PIN) at this station: the next lead action is approved. */
  async approve(input: { badge?: string; userId?: string; pin?: string }): Promise<SignedInUser> {
    const found = await this.identify(input);
    if (found.role !== 'lead')
      throw new UserError(
        'lead-required',
        `${found.name} is not a shift lead; a shift lead must scan their badge.`,
      );
    const by = { userId: found.userId, name: found.name, role: found.role };
    this.approval = { by, until: this.now() + (this.o.approvalMs ?? 120_000) };
    return by;
  }

  /** An approval waiting for the next lead action (for the header). */
  pendingApproval(): SignedInUser | null {
    return this.approval && this.approval.until > this.now() ? this.approval.by : null;
  }

  /**
   * The lead who allows `action`: null when no sign-in is set up (as before), the signed-in
   * user when they are a lead, else a lead's pending approval, used up here. Otherwise it
   * throws lead-required, saying what a lead must do.
   */
  lead(action: LeadAction): string | null {
    if (!this.required()) return null;
    const user = this.requireSignedIn();
    if (user?.role === 'lead') return user.name;
    const pending = this.pendingApproval();
    if (pending) {
      this.approval = null;
      return pending.name;
    }
    this.approval = null;
    throw new UserError(
      'lead-required',
      `A shift lead must approve ${describeLeadAction(action)} (lead, scan your badge at this station: it then goes ahead by itself). Nothing was done yet.`,
    );
  }

  private async identify(input: {
    badge?: string;
    userId?: string;
    pin?: string;
  }): Promise<UserRecord> {
    const users = this.o.users;
    if (users.count() === 0) throw new UserError('validation', NOBODY_ENABLED);
    if (input.badge?.trim()) {
      const digest = badgeDigest(input.badge);
      const user = users.byBadge(digest);
      if (!user)
        throw new UserError(
          'validation',
          users.badgeDisabled(digest)
            ? "That badge's user can no longer sign in here (disabled by site IT). Ask site IT or the shift lead."
            : 'That badge is not known at this site. Ask site IT to add it, or sign in with your PIN.',
        );
      return user;
    }
    const id = input.userId?.trim() ?? '';
    if (!id || !input.pin)
      throw new UserError('validation', 'Scan your badge, or type your user name and PIN.');
    const key = id.toLowerCase();
    const f = this.failures.get(key);
    if (f && f.pausedUntil > this.now())
      throw new UserError(
        'validation',
        `Too many wrong PINs for ${id}: wait ${Math.ceil((f.pausedUntil - this.now()) / 1000)} s, or scan your badge.`,
      );
    const user = users.byId(id);
    // The same work whether the user exists or not: the answer does not tell which.
    const ok = await verifyPin(
      input.pin,
      user?.pinHash ??
        'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    if (!user || !user.pinHash || !ok) {
      const count = (f?.count ?? 0) + 1;
      this.failures.set(key, {
        count: count >= FAILURES_BEFORE_PAUSE ? 0 : count,
        pausedUntil: count >= FAILURES_BEFORE_PAUSE ? this.now() + PAUSE_MS : 0,
      });
      throw new UserError('validation', 'That user name and PIN do not match.');
    }
    this.failures.delete(key);
    return user;
  }
}
