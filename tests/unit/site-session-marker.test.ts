import { describe, expect, it } from 'vitest';
import { mayHaveSession } from '../../host-web/session';

describe('whether the site asks for a refresh at start-up', () => {
  it('does not for a visitor who never signed in, nor once the server marked the browser signed out', () => {
    expect(mayHaveSession('')).toBe(false);
    expect(mayHaveSession('cookielang=cs; gender=2')).toBe(false);
    expect(mayHaveSession('fs_session=0')).toBe(false);
    expect(mayHaveSession('accept_18=20240307; fs_session=0')).toBe(false);
    // Not fooled by names that only end or start alike.
    expect(mayHaveSession('xfs_session=1; fs_session_old=1; accept_18x=1')).toBe(false);
  });

  it('does when the marker says a refresh cookie was written', () => {
    expect(mayHaveSession('fs_session=1')).toBe(true);
    expect(mayHaveSession('cookielang=en; fs_session=1; accept_18=20240307')).toBe(true);
    // A 0 written for a parent domain cannot hide the site's own 1.
    expect(mayHaveSession('fs_session=0; fs_session=1')).toBe(true);
  });

  it('does once for a browser that used the site before markers existed: it may hold a refresh cookie from then', () => {
    expect(mayHaveSession('accept_18=20240307')).toBe(true);
    expect(mayHaveSession('cookielang=cs; accept_18=20200101')).toBe(true);
  });
});
