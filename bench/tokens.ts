import { SignJWT } from 'jose';

/**
 * An access token for `userId` signed with the server's key (JWT_SECRET), as a sign-in would
 * issue it: the benches time what they measure, not argon2.
 */
export function accessToken(userId: number, secret: string, seconds = 3600): Promise<string> {
  const now = Date.now() / 1000;
  return new SignJWT({ userId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(Math.floor(now) + seconds)
    .sign(new TextEncoder().encode(secret));
}
