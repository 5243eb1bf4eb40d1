import { inArray } from 'drizzle-orm';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { account, inTransaction, transfer } from '../../ledger';
import { createChatService } from '../chat/service';

/** Who writes to whom on a fresh demo, in order: `lucy.rivers` (the account the README signs in with) finds a living chat list. */
const script: readonly { from: string; to: string; text: string }[] = [
  { from: 'jakub.dvorak', to: 'lucy.rivers', text: 'Hi Lucy! The sunset set from Lisbon is beautiful 🌅' },
  { from: 'lucy.rivers', to: 'jakub.dvorak', text: 'Thank you Jakub! More from that trip on Friday.' },
  { from: 'sofia.bloom', to: 'jakub.dvorak', text: 'Hey Jakub, thanks for the follow! ✨' },
  { from: 'petra.svobodova', to: 'lucy.rivers', text: 'Do you do private yoga sessions by video call?' },
];

/**
 * A few conversations between the demo fans and creators, sent through the chat itself: a fan's
 * message to a creator is paid like any other, from promotional credits granted for exactly
 * that message, so balances, earnings and the ledger tell the same story as the chat.
 */
export async function seedDemoChats(ctx: AppContext): Promise<void> {
  const names = [...new Set(script.flatMap((line) => [line.from, line.to]))];
  const rows = await ctx.db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.username, names));
  const idOf = new Map(rows.map((row) => [row.username, row.id]));
  const chat = createChatService(ctx);
  for (const [index, line] of script.entries()) {
    const senderId = idOf.get(line.from);
    const receiverId = idOf.get(line.to);
    if (senderId === undefined || receiverId === undefined) continue;
    const [conversation] = await chat.conversations(senderId, { senderId: receiverId });
    const price = conversation?.price ?? 0;
    if (price > 0) {
      const credits = fanPriceCents(price, ctx.config.priceSalt);
      await inTransaction(ctx.db, (tx) =>
        transfer(tx, {
          key: `promotion:demo-chat:${senderId}:${index}`,
          kind: 'promotion',
          counterpartyId: senderId,
          legs: [
            { account: account.promotions, amount: -credits },
            { account: account.wallet(senderId), amount: credits },
          ],
        }),
      );
    }
    await chat.send(senderId, { msgId: `demo-${index}`, receiverId, text: line.text, mediaId: null, giftId: null, price, confirmation: null });
  }
}
