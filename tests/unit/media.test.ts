import { describe, expect, it } from 'vitest';
import { avatarUrl, mediaUrl } from '../../lib/sdk';

const cdn = 'https://cdn.fanstage.example/media';
const photo = { mediaHash: 'a1b2c3', format: 'jpg' };

describe('a media address', () => {
  it('is the CDN, the hash and the format', () => {
    expect(mediaUrl(cdn, photo)).toBe('https://cdn.fanstage.example/media/a1b2c3.jpg');
  });

  it('carries the variant as t and the unlock key as k', () => {
    expect(mediaUrl(cdn, photo, { variant: 'og' })).toBe(`${cdn}/a1b2c3.jpg?t=og`);
    expect(mediaUrl(cdn, photo, { key: 'unlock-9' })).toBe(`${cdn}/a1b2c3.jpg?k=unlock-9`);
    expect(mediaUrl(cdn, photo, { variant: 120, key: 'unlock-9' })).toBe(`${cdn}/a1b2c3.jpg?t=120&k=unlock-9`);
  });

  it('leaves out empty options', () => {
    expect(mediaUrl(cdn, photo, { variant: '', key: '' })).toBe(`${cdn}/a1b2c3.jpg`);
  });

  it('does not double the slash when the CDN ends with one', () => {
    expect(mediaUrl(`${cdn}/`, photo)).toBe(`${cdn}/a1b2c3.jpg`);
  });

  it('works with a same-origin CDN path', () => {
    expect(mediaUrl('/media', photo)).toBe('/media/a1b2c3.jpg');
  });

  it('escapes characters that would break the address', () => {
    expect(mediaUrl(cdn, photo, { key: 'a&b=c' })).toBe(`${cdn}/a1b2c3.jpg?k=a%26b%3Dc`);
  });
});

describe('an avatar address', () => {
  it('asks for the WebP rendition at the given size', () => {
    expect(avatarUrl(cdn, photo, 60)).toBe(`${cdn}/a1b2c3.webp?t=60`);
    expect(avatarUrl(cdn, photo, 120)).toBe(`${cdn}/a1b2c3.webp?t=120`);
    expect(avatarUrl(cdn, photo, 500)).toBe(`${cdn}/a1b2c3.webp?t=500`);
  });

  it('is null without an avatar, so the UI can draw initials', () => {
    expect(avatarUrl(cdn, null, 120)).toBeNull();
    expect(avatarUrl(cdn, { mediaHash: '', format: 'jpg' }, 120)).toBeNull();
  });
});
