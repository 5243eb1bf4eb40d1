import { describe, expect, it } from 'vitest';
import { activeTab, isLoginOnly, isTabScreen } from '../../host-web/navigation';
import { chatPartnerOf } from '../../host-web/layout/chatPartner';

describe('the reference site’s chat routes', () => {
  it('are for logged-in users, and both belong to the Chat tab', () => {
    for (const path of ['/chat-list', '/chat/lucy.rivers', '/chat/42']) {
      expect(isLoginOnly(path)).toBe(true);
      expect(activeTab(path)).toBe('chat');
    }
  });

  it('shows the list as a tab screen and an opened chat with a back arrow', () => {
    expect(isTabScreen('/chat-list')).toBe(true);
    expect(isTabScreen('/chat/lucy.rivers')).toBe(false);
  });

  it('reads the partner of an opened chat from the address, for the header’s price badge', () => {
    expect(chatPartnerOf('/chat/lucy.rivers')).toBe('lucy.rivers');
    expect(chatPartnerOf('/chat/l%C3%BAcy?x=1')).toBe('lúcy');
    expect(chatPartnerOf('/chat-list')).toBeNull();
    expect(chatPartnerOf('/chat/')).toBeNull();
    expect(chatPartnerOf('/chat/%E0%A4%A')).toBeNull();
    expect(chatPartnerOf('/lucy.rivers')).toBeNull();
  });
});
