import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** The rules of phone codes (docs/account.md). */
export const phoneCodeRules = {
  digits: 6,
  /** How long a code may be typed in. */
  ttlMs: 10 * 60_000,
  /** Wrong guesses a code survives: the next wrong one ends it, so six digits cannot be walked through. */
  maxAttempts: 5,
} as const;

/**
 * The number in E.164 (`+` country code and subscriber number, 8–15 digits), or null. People
 * type spaces, dashes, dots and brackets between the digits; those are dropped, and a leading
 * `00` is the international prefix written out. Anything else (letters, no country code) is refused.
 */
export function normalisePhone(input: string): string | null {
  let phone = input.trim().replace(/[\s\-.()]/g, '');
  if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
  return /^\+[1-9]\d{7,14}$/.test(phone) ? phone : null;
}

/** A fresh code, zero-padded, from the system's secure random source. */
export function newPhoneCode(): string {
  return String(randomInt(0, 10 ** phoneCodeRules.digits)).padStart(phoneCodeRules.digits, '0');
}

/** What is stored of a code: tied to the account and number, so a row copied elsewhere proves nothing. */
export function phoneCodeHash(userId: number, phone: string, code: string): string {
  return createHash('sha256').update(`${userId}\n${phone}\n${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The code as typed: spaces between the digits are forgiven. */
export function typedCode(input: string): string {
  return input.replace(/\s/g, '');
}

/** The text of the SMS, in the account's language. */
export function phoneCodeText(code: string, language: string): string {
  const minutes = phoneCodeRules.ttlMs / 60_000;
  return language === 'cs'
    ? `Váš ověřovací kód Fanstage je ${code}. Platí ${minutes} minut. Nikomu ho nesdělujte.`
    : `Your Fanstage verification code is ${code}. It expires in ${minutes} minutes. Do not share it.`;
}

export type CodeCheck = { result: 'verified'; phone: string } | { result: 'wrong' | 'expired' | 'attempts' };

/** What a typed code does to the newest open code of the account (pure: the service writes the outcome). */
export function checkPhoneCode(
  row: { userId: number; phone: string; codeHash: string; attempts: number; expiresAt: Date } | undefined,
  code: string,
  now: Date,
): CodeCheck {
  if (row === undefined || row.expiresAt.getTime() <= now.getTime()) return { result: 'expired' };
  if (row.attempts >= phoneCodeRules.maxAttempts) return { result: 'attempts' };
  if (sameHash(row.codeHash, phoneCodeHash(row.userId, row.phone, typedCode(code)))) return { result: 'verified', phone: row.phone };
  return { result: row.attempts + 1 >= phoneCodeRules.maxAttempts ? 'attempts' : 'wrong' };
}
