/** A person who packs or leads a shift (issue 14). */
export type UserRole = 'packer' | 'lead';

export interface UserRecord {
  userId: string;
  name: string;
  role: UserRole;
  /** SHA-256 of the badge barcode (see badgeDigest), or null without a badge. */
  badgeSha256: string | null;
  /** scrypt hash of the PIN (see hashPin), or null without a PIN. */
  pinHash: string | null;
  active: boolean;
}

/** Who is signed in (never a hash). */
export interface SignedInUser {
  userId: string;
  name: string;
  role: UserRole;
}

export const USER_ID = /^[A-Za-z0-9._-]{1,40}$/;
