import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage } from '../../lib/sdk';
import { ShareDialog } from '../../lib/ui';
import { renderWith, violationsIn } from './support/auth';

function open(onClose: () => void = () => undefined) {
  const fanstage = createFanstage({ baseUrl: 'http://127.0.0.1:9' });
  return renderWith(fanstage, <ShareDialog url="https://fanstage.example/post/7" title="A post by Lucy" hashtags="art" onClose={onClose} />);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ShareDialog', { timeout: 20_000 }, () => {
  it('links every network to its share page with the channel\'s utm code', async () => {
    const { container } = open();
    const dialog = screen.getByRole('dialog', { name: 'Share' });
    const twitter = new URL(within(dialog).getByRole('link', { name: /Twitter/ }).getAttribute('href') ?? '');
    expect(twitter.searchParams.get('url')).toBe('https://fanstage.example/post/7?utm=1t2t');
    expect(twitter.searchParams.get('hashtags')).toBe('art');
    expect(within(dialog).getByRole('link', { name: /E-mail/ }).getAttribute('href')).toMatch(/^mailto:/);
    expect(await violationsIn(container)).toEqual([]);
  });

  it('opens web networks in a 626 × 436 window', async () => {
    const opened: string[] = [];
    vi.spyOn(window, 'open').mockImplementation((url, _name, features) => {
      opened.push(`${String(url)} ${features}`);
      return { opener: window } as unknown as Window;
    });
    open();
    await userEvent.click(screen.getByRole('link', { name: /Facebook/ }));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=.*width=626,height=436/);
  });

  it('copies the link and says so, or says the clipboard is out of reach', async () => {
    const user = userEvent.setup();
    open();
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link to this post has been copied.')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('https://fanstage.example/post/7?utm=1t2i');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText(/No access to the clipboard/)).toBeInTheDocument();
  });

  it('closes with Escape and the close button', async () => {
    let closed = 0;
    open(() => void (closed += 1));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(closed).toBe(2);
  });
});
