/**
 * The password rules every auth path shares: the length a new password must have, and the
 * check of a password against its stored hash, which spends a hash on unknown accounts too so
 * a wrong e-mail takes as long to refuse as a wrong password.
 */
import { hash as argonHash } from '@node-rs/argon2';
import { AppError } from '../../errors';
import { verifyPasswordHash, type HashingTicket } from './hashing';
import { passwordHashOptions, passwordLength, randomToken } from './domain';

// Spent on logins for unknown e-mails so they take as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/** A password against its stored hash, in the hashing pool's turn (`ticket`, or a place of its own). */
export async function verifyPassword(stored: string | null, password: string, ticket?: HashingTicket): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= argonHash(randomToken(), passwordHashOptions);
    const hashed = await dummyHash;
    await verifyPasswordHash(hashed, password, ticket);
    return false;
  }
  return verifyPasswordHash(stored, password, ticket);
}

export function checkPassword(password: string): void {
  if (password.length < passwordLength.min || password.length > passwordLength.max) throw new AppError('weak-password');
}
