import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FollowButton } from '../../lib/ui';
import { renderWith, siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
  t.api.addPerson('fan@example.com', 'correct horse battery');
  t.api.addPerson('second@example.com', 'correct horse battery');
  t.api.addPerson('third@example.com', 'correct horse battery');
});

afterAll(() => t.server.close());

async function loggedIn(email = 'fan@example.com') {
  const fanstage = siteFanstage(t.server.baseUrl);
  await fanstage.session.login(email, 'correct horse battery');
  return fanstage;
}

describe('FollowButton', () => {
  it('asks a visitor to log in instead of following', async () => {
    const onLoginRequired = vi.fn();
    const before = t.api.count('/api/users/follow');
    const { container } = renderWith(siteFanstage(t.server.baseUrl), <FollowButton username="alice" onLoginRequired={onLoginRequired} />);
    const button = await screen.findByRole('button', { name: 'Follow Alice Nováková' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.setup().click(button);
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    expect(t.api.count('/api/users/follow')).toBe(before);
  });

  it('follows once a login asked for on the click has signed the fan in', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    // As a widget's popup sign-in does: the fan signs in elsewhere and the session adopts it.
    const onLoginRequired = vi.fn(async () => {
      await fanstage.session.login('third@example.com', 'correct horse battery');
      return true;
    });
    renderWith(fanstage, <FollowButton username="alice" onLoginRequired={onLoginRequired} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Follow Alice Nováková' }));
    const button = await screen.findByRole('button', { pressed: true });
    expect(button).toHaveTextContent('Now following');
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getAllByRole('status').some((s) => s.textContent === 'You now follow Alice Nováková.')).toBe(true));
    expect(t.server.requests.filter((r) => r.url === '/api/users/follow').at(-1)?.method).toBe('POST');
  });

  it('stays as it was when the login asked for is cancelled', async () => {
    const before = t.api.count('/api/users/follow');
    renderWith(siteFanstage(t.server.baseUrl), <FollowButton username="alice" onLoginRequired={() => Promise.resolve(false)} />);
    const button = await screen.findByRole('button', { name: 'Follow Alice Nováková' });
    await userEvent.setup().click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(t.api.count('/api/users/follow')).toBe(before);
  });

  it('follows at once, shows "Now following" on every button of that user, and the server stores it', async () => {
    const fanstage = await loggedIn();
    const { container } = renderWith(
      fanstage,
      <>
        <FollowButton username="alice" />
        <FollowButton userId={42} />
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
    const call = t.server.requests.filter((r) => r.url === '/api/users/follow').at(-1);
    expect(call?.method).toBe('POST');
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ id: 42 });

    // A fresh page for the same viewer loads the follow from the server.
    const other = siteFanstage(t.server.baseUrl);
    await other.session.login('fan@example.com', 'correct horse battery');
    await other.profiles.load('alice');
    expect(other.profiles.get('alice').profile.value?.isFollowed).toBe(true);

    await userEvent.setup().click(pressed[0] as HTMLElement);
    await waitFor(() => expect(screen.queryAllByRole('button', { pressed: true })).toHaveLength(0));
    expect(t.server.requests.filter((r) => r.url === '/api/users/follow').at(-1)?.method).toBe('DELETE');
  });

  it('rolls back and explains when the server refuses the follow', async () => {
    const fanstage = await loggedIn('second@example.com');
    renderWith(fanstage, <FollowButton username="alice" />);
    const button = await screen.findByRole('button', { name: 'Follow Alice Nováková' });
    t.api.failFollows = 1;
    await userEvent.setup().click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your e-mail address first.');
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(button).toHaveTextContent('Follow');
  });

  it('asks before unfollowing when told to', async () => {
    const fanstage = await loggedIn('second@example.com');
    await fanstage.relations.follow(42).catch(() => undefined);
    await fanstage.profiles.load('alice');
    const confirmUnfollow = vi.fn(() => false);
    renderWith(fanstage, <FollowButton username="alice" confirmUnfollow={confirmUnfollow} />, 'cs');
    const button = await screen.findByRole('button', { name: 'Sledujete Alice Nováková' });
    await userEvent.setup().click(button);
    expect(confirmUnfollow).toHaveBeenCalledTimes(1);
    expect(button).toHaveAttribute('aria-pressed', 'true');
  });
});
