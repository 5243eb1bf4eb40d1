import { useLocation } from 'wouter';
import { CallButton, ChatPriceBadge, useChatPartner } from '../../lib/ui';

/**
 * SPEC §2 header: the chat price badge on ChatOpened, for the partner of `/chat/{user}`, and
 * the call button when the partner takes calls.
 */
export function HeaderChatPrice({ user }: { user: string }) {
  const partner = useChatPartner(user);
  const [, navigate] = useLocation();
  if (partner.userId === null) return null;
  return (
    <>
      <ChatPriceBadge userId={partner.userId} />
      <CallButton creator={partner.userId} compact onStarted={(callId) => navigate(`/videocall/${encodeURIComponent(callId)}`)} />
    </>
  );
}
