import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import type { PublicProfile, Settings } from '../../lib/sdk';
import { createI18n } from '../../lib/i18n';
import { ProfileCardView } from '../../lib/ui';
import { initialsOf, toCardData } from '../../lib/ui/ProfileCard/useProfileCard';

const settings = { mediaCDN: 'https://cdn.example/media/', salt: 15_000 } as Settings;

function profile(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return {
    id: 7,
    username: 'jana.k',
    displayName: 'Jana Králová',
    bio: 'Painter.\nPrague.',
    avatarMedia: { mediaHash: 'abc123', format: 'jpg' },
    level: 0,
    hasBadge: false,
    badgeVerifiedState: 0,
    online: false,
    followersCount: 12_345,
    postsCount: 1,
    isPartner: false,
    isSeller: false,
    messagePrice: 0,
    callPrice: 0,
    gender: 2,
    offersSubscriptions: false,
    ...overrides,
  };
}

const en = createI18n('en').t;
const cs = createI18n('cs').t;

describe('ProfileCardView', () => {
  it('shows the avatar at 120 px from the CDN, with the name as its description', () => {
    render(<ProfileCardView status="ready" profile={toCardData(profile(), settings, en)} />);
    const avatar = screen.getByRole('img', { name: "Jana Králová's avatar" });
    expect(avatar).toHaveAttribute('src', 'https://cdn.example/media/abc123.webp?t=120');
  });

  it('falls back to initials without an avatar', () => {
    render(<ProfileCardView status="ready" profile={toCardData(profile({ avatarMedia: null }), settings, en)} />);
    expect(screen.getByRole('img', { name: "Jana Králová's avatar" })).toHaveTextContent('JK');
  });

  it('falls back to initials when the picture fails to load', async () => {
    render(<ProfileCardView status="ready" profile={toCardData(profile(), settings, en)} />);
    const avatar = screen.getByRole('img', { name: "Jana Králová's avatar" });
    avatar.dispatchEvent(new Event('error'));
    expect(await screen.findByText('JK')).toBeInTheDocument();
  });

  it('shows the verified badge for a badge holder and for a verified state of 3 only', () => {
    const { rerender } = render(<ProfileCardView status="ready" profile={toCardData(profile({ hasBadge: true }), settings, en)} />);
    expect(screen.getByRole('img', { name: 'Verified creator' })).toBeInTheDocument();
    rerender(<ProfileCardView status="ready" profile={toCardData(profile({ badgeVerifiedState: 3 }), settings, en)} />);
    expect(screen.getByRole('img', { name: 'Verified creator' })).toBeInTheDocument();
    rerender(<ProfileCardView status="ready" profile={toCardData(profile({ badgeVerifiedState: 2 }), settings, en)} />);
    expect(screen.queryByRole('img', { name: 'Verified creator' })).toBeNull();
  });

  it('shortens counts and picks the plural from the exact count', () => {
    render(<ProfileCardView status="ready" profile={toCardData(profile(), settings, en)} />);
    expect(screen.getByRole('list', { name: 'Statistics' })).toHaveTextContent('12k followers');
    expect(screen.getByRole('list', { name: 'Statistics' })).toHaveTextContent('1 post');
  });

  it('uses the Czech plural forms', () => {
    const { rerender } = render(<ProfileCardView status="ready" profile={toCardData(profile({ followersCount: 3, postsCount: 5 }), settings, cs)} />);
    const stats = () => screen.getByRole('list', { name: 'Statistiky' });
    expect(stats()).toHaveTextContent('3 sledující');
    expect(stats()).toHaveTextContent('5 příspěvků');
    rerender(<ProfileCardView status="ready" profile={toCardData(profile({ followersCount: 1, postsCount: 2 }), settings, cs)} />);
    expect(stats()).toHaveTextContent('1 sledující');
    expect(stats()).toHaveTextContent('2 příspěvky');
  });

  it('shows a seller’s prices with the platform salt applied', () => {
    // 130 cents × 1.5 = $1.95; 1000 cents × 1.5 = $15 (whole dollars from $10 up).
    render(<ProfileCardView status="ready" profile={toCardData(profile({ isSeller: true, messagePrice: 130, callPrice: 1000 }), settings, en)} />);
    const prices = screen.getByRole('list', { name: 'Prices' });
    expect(prices).toHaveTextContent('Message $1.95');
    expect(prices).toHaveTextContent('Call $15 / min');
  });

  it('says free for a seller’s zero prices and shows no prices for fans', () => {
    const { rerender } = render(<ProfileCardView status="ready" profile={toCardData(profile({ isSeller: true }), settings, en)} />);
    expect(screen.getByRole('list', { name: 'Prices' })).toHaveTextContent('Messages free');
    rerender(<ProfileCardView status="ready" profile={toCardData(profile({ messagePrice: 130 }), settings, en)} />);
    expect(screen.queryByRole('list', { name: 'Prices' })).toBeNull();
  });

  it('shows the online dot with a label', () => {
    render(<ProfileCardView status="ready" profile={toCardData(profile({ online: true }), settings, en)} />);
    expect(screen.getByRole('img', { name: 'Online' })).toBeInTheDocument();
  });

  it('links the name when given an address, under the heading level asked for', () => {
    render(<ProfileCardView status="ready" headingLevel={1} profile={toCardData(profile(), settings, en, '/jana.k')} />);
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.querySelector('a')).toHaveAttribute('href', '/jana.k');
    expect(screen.getByRole('link', { name: "Open Jana Králová's profile" })).toBeInTheDocument();
  });

  it('retries from the error state', async () => {
    const onRetry = vi.fn();
    render(<ProfileCardView status="error" message="The profile could not be loaded." detail="" retryLabel="Try again" onRetry={onRetry} />);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('has no accessibility violations in any state', async () => {
    const states = [
      <ProfileCardView key="r" status="ready" profile={toCardData(profile({ isSeller: true, online: true, hasBadge: true, messagePrice: 50 }), settings, en, '/jana.k')} />,
      <ProfileCardView key="i" status="ready" profile={toCardData(profile({ avatarMedia: null }), null, en)} />,
      <ProfileCardView key="l" status="loading" message="Loading profile…" />,
      <ProfileCardView key="n" status="not-found" message="This profile does not exist." />,
      <ProfileCardView key="e" status="error" message="The profile could not be loaded." detail="Network error." retryLabel="Try again" onRetry={() => undefined} />,
    ];
    for (const state of states) {
      const { container, unmount } = render(<main>{state}</main>);
      const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
      expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      unmount();
    }
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first and last word', () => {
    expect(initialsOf('Lucy Rivers')).toBe('LR');
    expect(initialsOf('Anna Marie de la Cruz')).toBe('AC');
    expect(initialsOf('marek.novak')).toBe('M');
    expect(initialsOf('  ')).toBe('?');
    expect(initialsOf('Šárka Řeháková')).toBe('ŠŘ');
  });
});
