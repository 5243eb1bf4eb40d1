import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage } from '../../lib/sdk';
import { clampZoom, doubleTapZoom, isDoubleTap, isSwipeClose, MediaViewer, pinchZoom } from '../../lib/ui';
import { media } from '../unit/support/feed-fixtures';
import { renderWith, violationsIn } from './support/auth';

const pictures = [media({ mediaId: 1, mediaHash: 'one', mediaUnlockHash: null }), media({ mediaId: 2, mediaHash: 'two', mediaPrice: 320, mediaUnlockHash: 'key2' }), media({ mediaId: 3, mediaHash: 'locked', mediaPrice: 320 })];

function open(onClose: () => void = () => undefined) {
  const fanstage = createFanstage({ baseUrl: 'http://127.0.0.1:9' });
  return renderWith(fanstage, <MediaViewer media={pictures} index={0} mediaCDN="https://cdn.example/media" authorName="Lucy" onClose={onClose} />);
}

describe('zoom and gestures', () => {
  it('keep the zoom between 0.5× and 4×', () => {
    expect(clampZoom(10)).toBe(4);
    expect(clampZoom(0.1)).toBe(0.5);
    expect(pinchZoom(1, 100, 300)).toBe(3);
    expect(pinchZoom(2, 100, 400)).toBe(4);
    expect(pinchZoom(1, 200, 50)).toBe(0.5);
  });

  it('count a second tap within 300 ms as a double tap, toggling 2×', () => {
    expect(isDoubleTap(1000, 1300)).toBe(true);
    expect(isDoubleTap(1000, 1301)).toBe(false);
    expect(isDoubleTap(null, 1000)).toBe(false);
    expect(doubleTapZoom(1)).toBe(2);
    expect(doubleTapZoom(2)).toBe(1);
  });

  it('close on a 10 px vertical swipe only when not zoomed in', () => {
    expect(isSwipeClose(0, 10, 1)).toBe(true);
    expect(isSwipeClose(0, 9, 1)).toBe(false);
    expect(isSwipeClose(30, 12, 1)).toBe(false);
    expect(isSwipeClose(0, 40, 2)).toBe(false);
  });
});

describe('MediaViewer', { timeout: 20_000 }, () => {
  it('is a labelled dialog that shows unlocked media only and closes on Escape', async () => {
    let closed = 0;
    const { container } = open(() => void (closed += 1));
    const dialog = screen.getByRole('dialog', { name: 'Full screen: Media 1 of 2 by Lucy' });
    expect(dialog).toHaveFocus();
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('img', { name: 'Media 2 of 2 by Lucy' })).toHaveAttribute('src', 'https://cdn.example/media/two.jpg?t=1280&k=key2');
    await userEvent.keyboard('{Escape}');
    expect(closed).toBe(1);
  });

  it('zooms with the keyboard and the buttons, within its limits', async () => {
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByText('150 %')).toBeInTheDocument();
    for (let i = 0; i < 5; i++) await userEvent.keyboard('+');
    expect(screen.getByText('400 %')).toBeInTheDocument();
    // Still focusable at the limit (aria-disabled), so the keys keep working.
    expect(screen.getByRole('button', { name: 'Zoom in' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.keyboard('0');
    expect(screen.getByText('100 %')).toBeInTheDocument();
  });

  it('zooms to 2× on a double tap', () => {
    open();
    const stage = screen.getByRole('img').parentElement as HTMLElement;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 10, clientY: 10 });
    fireEvent.pointerUp(stage, { pointerId: 1 });
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 10, clientY: 10 });
    fireEvent.pointerUp(stage, { pointerId: 1 });
    expect(screen.getByText('200 %')).toBeInTheDocument();
  });

  it('closes on a swipe', () => {
    let closed = 0;
    open(() => void (closed += 1));
    const stage = screen.getByRole('img').parentElement as HTMLElement;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 101, clientY: 115 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 101, clientY: 115 });
    expect(closed).toBe(1);
  });
});
