import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FollowButton } from '../../lib/ui';
import { follows } from '../../server/src/db/schema';
import { createAccount, type TestAccount } from '../support/accounts';
import { and, eq } from '../support/db';
import { person, type Person } from '../server/support-feeds';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;
let alice: Person;

beforeAll(async () => {
  t = await startAuthServer();
  alice = await person(t.server.app, { username: 'alice', displayName: 'Alice Nováková' });
}, 60_000);

afterAll(() => t?.close());

async function loggedIn(fan: TestAccount) {
  const fanstage = t.site();
  await fanstage.session.login(fan.email, fan.password);
  return fanstage;
}

/** Whether the server has stored that `fan` follows alice. */
async function followsAlice(fan: TestAccount): Promise<boolean> {
  const rows = await t.server.app.fanstage.db
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, fan.id), eq(follows.followedId, alice.id)));
  return rows.length > 0;
}

describe('FollowButton against the real server', { timeout: 30_000 }, () => {
  it('asks a visitor to log in instead of following', async () => {
    const onLoginRequired = vi.fn();
    const before = t.count('/api/users/follow');
    const { container } = renderWith(t.site(), <FollowButton username="alice" onLoginRequired={onLoginRequired} />);
    const button = await screen.findByRole('button', { name: 'Follow Alice Nováková' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.setup().click(button);
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    expect(t.count('/api/users/follow')).toBe(before);
  });

  it('follows once a login asked for on the click has signed the fan in', async () => {
    const fan = await createAccount(t.server.app);
    const fanstage = t.site();
    // As a widget's popup sign-in does: the fan signs in elsewhere and the session adopts it.
    const onLoginRequired = vi.fn(async () => {
      await fanstage.session.login(fan.email, fan.password);
      return true;
    });
    renderWith(fanstage, <FollowButton username="alice" onLoginRequired={onLoginRequired} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Follow Alice Nováková' }));
    const button = await screen.findByRole('button', { pressed: true });
    expect(button).toHaveTextContent('Now following');
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getAllByRole('status').some((s) => s.textContent === 'You now follow Alice Nováková.')).toBe(true));
    await waitFor(async () => expect(await followsAlice(fan)).toBe(true));
  });

  it('stays as it was when the login asked for is cancelled', async () => {
    const before = t.count('/api/users/follow');
    renderWith(t.site(), <FollowButton username="alice" onLoginRequired={() => Promise.resolve(false)} />);
    const button = await screen.findByRole('button', { name: 'Follow Alice Nováková' });
    await userEvent.setup().click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(t.count('/api/users/follow')).toBe(before);
  });

  it('follows at once, shows "Now following" on every button of that user, and the server stores it', async () => {
    const fan = await createAccount(t.server.app);
    const fanstage = await loggedIn(fan);
    const { container } = renderWith(
      fanstage,
      <>
        <FollowButton username="alice" />
        <FollowButton userId={alice.id} />
      </>,
    );
    const [first] = await screen.findAllByRole('button', { name: 'Follow Alice Nováková' });
    await userEvent.setup().click(first as HTMLElement);
    const pressed = screen.getAllByRole('button', { pressed: true });
    expect(pressed).toHaveLength(2);
    expect(pressed[0]).toHaveTextContent('Now following');
    expect(pressed[1]).toHaveTextContent('Following');
    await waitFor(() => expect(screen.getAllByRole('status').some((s) => s.textContent === 'You now follow Alice Nováková.')).toBe(true));
    expect(await violationsIn(container)).toEqual([]);
    const call = t.sent.filter((r) => r.path === '/api/users/follow').at(-1);
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({ id: alice.id });
    await waitFor(async () => expect(await followsAlice(fan)).toBe(true));

    // A fresh page for the same viewer loads the follow from the server.
    const other = await loggedIn(fan);
    await other.profiles.load('alice');
    expect(other.profiles.get('alice').profile.value?.isFollowed).toBe(true);

    await userEvent.setup().click(pressed[0] as HTMLElement);
    await waitFor(() => expect(screen.queryAllByRole('button', { pressed: true })).toHaveLength(0));
    expect(t.sent.filter((r) => r.path === '/api/users/follow').at(-1)?.method).toBe('DELETE');
    await waitFor(async () => expect(await followsAlice(fan)).toBe(false));
  });

  it('rolls back and explains when the server refuses the follow (an unverified e-mail)', async () => {
    const fan = await createAccount(t.server.app, { verified: false });
    const fanstage = await loggedIn(fan);
    renderWith(fanstage, <FollowButton username="alice" />);
    const button = await screen.findByRole('button', { name: 'Follow Alice Nováková' });
    // The button says Following at once and goes back when the refusal arrives; a quick server
    // answers before the next line would look, so every state it passes through is noted.
    const pressed: Array<string | null> = [];
    const observer = new MutationObserver(() => pressed.push(button.getAttribute('aria-pressed')));
    observer.observe(button, { attributes: true, attributeFilter: ['aria-pressed'] });
    await userEvent.setup().click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your e-mail address first.');
    observer.disconnect();
    expect(pressed).toEqual(['true', 'false']);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(button).toHaveTextContent('Follow');
    expect(await followsAlice(fan)).toBe(false);
  });

  it('asks before unfollowing when told to, and the follow stays', async () => {
    const fan = await createAccount(t.server.app);
    const fanstage = await loggedIn(fan);
    await fanstage.relations.follow(alice.id);
    await fanstage.profiles.load('alice');
    const confirmUnfollow = vi.fn(() => false);
    const unfollows = t.count('/api/users/follow', 'DELETE');
    renderWith(fanstage, <FollowButton username="alice" confirmUnfollow={confirmUnfollow} />, 'cs');
    const button = await screen.findByRole('button', { name: 'Sledujete Alice Nováková' });
    await userEvent.setup().click(button);
    expect(confirmUnfollow).toHaveBeenCalledTimes(1);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(t.count('/api/users/follow', 'DELETE')).toBe(unfollows);
    expect(await followsAlice(fan)).toBe(true);
  });
});
