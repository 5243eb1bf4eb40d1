import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { createFanstage, formatCount, formatPrice, type Fanstage, type PublicProfile, type Settings } from '../../lib/sdk';
import { FanstageProvider, ProfileCard } from '../../lib/ui';
import { startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
let lucy: PublicProfile;
let settings: Settings;

beforeAll(async () => {
  server = await startTestServer();
  // What the card should show comes from the server itself, so the test follows the seed.
  const probe = createFanstage({ baseUrl: server.baseUrl });
  [lucy, settings] = await Promise.all([probe.api.user('lucy.rivers'), probe.api.settings()]);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

function renderCard(username: string, options: { language?: 'en' | 'cs'; fanstage?: Fanstage } = {}) {
  const fanstage = options.fanstage ?? createFanstage({ baseUrl: server.baseUrl, language: options.language ?? 'en' });
  return render(
    <FanstageProvider fanstage={fanstage} language={options.language ?? 'en'}>
      <main>
        <ProfileCard username={username} />
      </main>
    </FanstageProvider>,
  );
}

/** axe's verdict on the rendered card; colour contrast needs layout, which jsdom has not. */
async function violationsIn(container: HTMLElement) {
  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describe('ProfileCard against the real server', () => {
  it('shows a loading state first, then the seeded creator', async () => {
    renderCard('lucy.rivers');
    expect(screen.getByRole('status')).toHaveTextContent('Loading profile…');
    expect(await screen.findByRole('heading', { name: new RegExp(lucy.displayName) })).toBeInTheDocument();
    expect(screen.getByText(`@${lucy.username}`)).toBeInTheDocument();
  });

  it('shows the followers and posts counts, formatted and with the right plural', async () => {
    renderCard('lucy.rivers');
    const stats = await screen.findByRole('list', { name: 'Statistics' });
    const followers = lucy.followersCount === 1 ? 'follower' : 'followers';
    const posts = lucy.postsCount === 1 ? 'post' : 'posts';
    expect(within(stats).getByText(formatCount(lucy.followersCount)).closest('li')).toHaveTextContent(`${formatCount(lucy.followersCount)} ${followers}`);
    expect(within(stats).getByText(formatCount(lucy.postsCount), { selector: 'span' }).closest('li')).toHaveTextContent(`${formatCount(lucy.postsCount)} ${posts}`);
  });

  it('shows the avatar from the media CDN at 120 px, described by the creator’s name', async () => {
    expect(lucy.avatarMedia, 'the seed gives lucy.rivers an avatar').not.toBeNull();
    renderCard('lucy.rivers');
    const avatar = await screen.findByRole('img', { name: `${lucy.displayName}'s avatar` });
    expect(avatar.tagName).toBe('IMG');
    expect(avatar).toHaveAttribute('src', `${settings.mediaCDN.replace(/\/+$/, '')}/${lucy.avatarMedia?.mediaHash}.webp?t=120`);
  });

  it('marks a verified creator with a labelled badge', async () => {
    expect(lucy.hasBadge || lucy.badgeVerifiedState === 3, 'the seed verifies lucy.rivers').toBe(true);
    renderCard('lucy.rivers');
    const heading = await screen.findByRole('heading', { name: new RegExp(lucy.displayName) });
    expect(within(heading).getByRole('img', { name: 'Verified creator' })).toBeInTheDocument();
  });

  it('shows the bio', async () => {
    renderCard('lucy.rivers');
    expect(await screen.findByText(lucy.bio.trim())).toBeInTheDocument();
  });

  it('shows a seller’s message and call prices as a fan pays them', async () => {
    expect(lucy.isSeller && lucy.messagePrice > 0 && lucy.callPrice > 0, 'the seed prices lucy.rivers').toBe(true);
    renderCard('lucy.rivers');
    const prices = await screen.findByRole('list', { name: 'Prices' });
    expect(prices).toHaveTextContent(`Message ${formatPrice(lucy.messagePrice, settings.salt)}`);
    expect(prices).toHaveTextContent(`Call ${formatPrice(lucy.callPrice, settings.salt)} / min`);
    // The platform's salt really applies: what a fan pays differs from the stored cents.
    if (settings.salt !== 10_000) expect(prices).not.toHaveTextContent(formatPrice(lucy.messagePrice, 10_000));
  });

  it('says so when the profile does not exist', async () => {
    renderCard('no-such-creator-here');
    expect(await screen.findByText('This profile does not exist.')).toBeInTheDocument();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('offers a retry when the API cannot be reached', async () => {
    // A port nothing listens on: a network failure, not a missing profile.
    const unreachable = createFanstage({ baseUrl: 'http://127.0.0.1:9', timeout: 2000 });
    renderCard('lucy.rivers', { fanstage: unreachable });
    expect(await screen.findByRole('alert')).toHaveTextContent('The profile could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('speaks Czech when the language is cs', async () => {
    renderCard('lucy.rivers', { language: 'cs' });
    expect(screen.getByRole('status')).toHaveTextContent('Načítání profilu…');
    const stats = await screen.findByRole('list', { name: 'Statistiky' });
    expect(stats).toHaveTextContent(/sledující|sledujících/);
    expect(screen.getByRole('img', { name: `Profilová fotka: ${lucy.displayName}` })).toBeInTheDocument();
  });

  it('switches language in place when the provider’s language changes', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const tree = (language: 'en' | 'cs') => (
      <FanstageProvider fanstage={fanstage} language={language}>
        <ProfileCard username="lucy.rivers" />
      </FanstageProvider>
    );
    const { rerender, container } = render(tree('en'));
    await screen.findByRole('list', { name: 'Statistics' });
    expect(container.querySelector('.fs-root')).toHaveAttribute('lang', 'en');
    rerender(tree('cs'));
    expect(await screen.findByRole('list', { name: 'Statistiky' })).toBeInTheDocument();
    expect(container.querySelector('.fs-root')).toHaveAttribute('lang', 'cs');
  });

  it('says in Czech that a profile does not exist', async () => {
    renderCard('no-such-creator-here', { language: 'cs' });
    expect(await screen.findByText('Tento profil neexistuje.')).toBeInTheDocument();
  });

  it('has no accessibility violations once loaded', async () => {
    const { container } = renderCard('lucy.rivers');
    await screen.findByRole('heading', { name: new RegExp(lucy.displayName) });
    expect(await violationsIn(container)).toEqual([]);
  });

  it('has no accessibility violations while loading or when not found', async () => {
    const loading = renderCard('marek.novak');
    expect(await violationsIn(loading.container)).toEqual([]);
    loading.unmount();
    const missing = renderCard('no-such-creator-here');
    await screen.findByText('This profile does not exist.');
    expect(await violationsIn(missing.container)).toEqual([]);
  });
});
