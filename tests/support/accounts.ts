import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { issueAccessToken } from '../../server/src/features/auth/guard';
import { createAccount as createAccountInDb } from '../../server/src/features/auth/service';

export interface AccountOptions {
  email?: string;
  password?: string;
  /** E-mail verified (default true: most rules need it). */
  verified?: boolean;
  level?: number;
  seller?: boolean;
  username?: string;
}

export interface TestAccount {
  id: number;
  email: string;
  password: string;
  username: string;
  accessToken: string;
}

/**
 * An account made through the server's own account service (the password hashed as at
 * signup), with a fresh access token for `Authorization: Bearer …`.
 */
export async function createAccount(app: FastifyInstance, options: AccountOptions = {}): Promise<TestAccount> {
  const ctx = app.fanstage;
  const suffix = randomBytes(5).toString('hex');
  const email = options.email ?? `fan.${suffix}@example.com`;
  const password = options.password ?? `pass-${suffix}-word`;
  const created = await createAccountInDb(ctx, {
    email,
    password,
    username: options.username,
    verified: options.verified ?? true,
    level: options.level,
    seller: options.seller,
  });
  return { id: created.id, email, password, username: created.username, accessToken: await issueAccessToken(ctx, created.id) };
}
