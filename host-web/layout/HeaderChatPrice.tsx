import { ChatPriceBadge, useChatPartner } from '../../lib/ui';

/** SPEC §2 header: the chat price badge on ChatOpened, for the partner of `/chat/{user}`. */
export function HeaderChatPrice({ user }: { user: string }) {
  const partner = useChatPartner(user);
  return partner.userId === null ? null : <ChatPriceBadge userId={partner.userId} />;
}
