import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { createFanstage, createBadgeVerifier, verifyBadge, type BadgeJwk } from '../../lib/sdk';
import { FanstageProvider, ProfileCard } from '../../lib/ui';
import { startTestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { eq } from '../support/db';
import { users } from '../../server/src/db/schema';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('the profile card’s verified badge', () => {
  it('is shown only when the signed statement verifies: a profile that still says "verified" after a revocation shows none', async () => {
    const creator = await createAccount(server.app, { seller: true });
    await server.app.fanstage.db.update(users).set({ hasBadge: true, badgeVerifiedState: 3, isPartner: true }).where(eq(users.id, creator.id));
    const fanstage = createFanstage({ baseUrl: server.baseUrl, language: 'en' });
    // The page loaded the profile while it had the badge…
    await fanstage.profiles.load(creator.username);
    expect(fanstage.profiles.get(creator.username).profile.peek()?.hasBadge).toBe(true);
    // …then an administrator took the badge away: the platform signs no statement any more.
    await server.app.fanstage.db.update(users).set({ hasBadge: false, badgeVerifiedState: 0 }).where(eq(users.id, creator.id));
    render(
      <FanstageProvider fanstage={fanstage} language="en">
        <ProfileCard username={creator.username} />
      </FanstageProvider>,
    );
    const heading = await screen.findByRole('heading', { name: new RegExp(creator.username) });
    expect(within(heading).queryByRole('img', { name: 'Verified creator' })).toBeNull();
  });

  it('verifies offline against the key set, fetched once, and refuses a statement about someone else', async () => {
    const creator = await createAccount(server.app, { seller: true });
    await server.app.fanstage.db.update(users).set({ hasBadge: true, badgeVerifiedState: 3, isPartner: true }).where(eq(users.id, creator.id));
    const asked: string[] = [];
    const verifier = createBadgeVerifier(server.baseUrl, (input, init) => {
      asked.push(new URL(String(input)).pathname);
      return fetch(input, init);
    });
    expect(await verifier.check(creator.username)).toMatchObject({ sub: creator.username, verified: true, partner: true });
    // Kept until it expires: asked once.
    expect(await verifier.check(`@${creator.username.toUpperCase()}`)).toMatchObject({ sub: creator.username });
    expect(asked.filter((path) => path === '/.well-known/jwks.json')).toHaveLength(1);
    expect(asked.filter((path) => path.endsWith('/badge'))).toHaveLength(1);

    const answer = (await (await fetch(`${server.baseUrl}/papi/users/${creator.username}/badge`)).json()) as { body: { token: string } };
    const keys = (await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json()) as { keys: BadgeJwk[] };
    const keyFor = async (kid: string) => keys.keys.find((key) => key.kid === kid) ?? null;
    expect(await verifyBadge(answer.body.token, keyFor, { username: 'lucy.rivers' })).toBeNull();
    expect(await verifyBadge(answer.body.token, async () => null, { username: creator.username })).toBeNull();
  });
});
