import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '../../lib/contract/chat';
import type { ServerMessage } from '../../lib/contract/realtime';
import { eq } from '../support/db';
import { media, users } from '../../server/src/db/schema';
import { mediaKey } from '../../server/src/media/images';
import type { SocketClient } from '../support/sockets';

/** A fresh client msgId, as the SDK makes them. */
export const newMsgId = () => randomBytes(12).toString('hex');

/** A seller's usual price per message (stored cents). */
export async function setMessagePrice(app: FastifyInstance, userId: number, cents: number): Promise<void> {
  await app.fanstage.db.update(users).set({ messagePrice: cents }).where(eq(users.id, userId));
}

/** A ready picture `ownerId` uploaded for chat at `price`, with its original in the media storage. */
export async function chatPicture(app: FastifyInstance, ownerId: number, price = 0, fields: { kind?: string; status?: number } = {}): Promise<number> {
  const hash = randomBytes(16).toString('hex');
  const [row] = await app.fanstage.db
    .insert(media)
    .values({ hash, ownerId, kind: fields.kind ?? 'chat', format: 'webp', width: 800, height: 600, status: fields.status ?? 3, price })
    .returning({ id: media.id });
  await app.fanstage.storage.put(mediaKey(hash, 'webp'), Buffer.from('a chat picture'));
  return row!.id;
}

/** Whether a server message answers the client message `msgId`: its echo, a refusal event or an error. */
export function answers(msgId: string) {
  return (m: ServerMessage) =>
    (m.type === 'chatMessage' && m.message.msgId === msgId) ||
    (m.type === 'massChatMessage' && m.message.msgId === msgId) ||
    (m.type === 'eventMessage' && (m.data as { msgId?: string } | undefined)?.msgId === msgId) ||
    (m.type === 'error' && m.msgId === msgId);
}

/** Sends a chat message and answers what the server answered it with. */
export async function attempt(client: SocketClient, fields: Record<string, unknown> & { receiverId: number }): Promise<ServerMessage> {
  const msgId = typeof fields.msgId === 'string' ? fields.msgId : newMsgId();
  const from = client.mark;
  client.send({ type: 'chatMessage', msgId, text: 'hello', ...fields });
  return client.next(answers(msgId), from);
}

/** Sends a chat message that must be stored, and answers the echo. */
export async function say(client: SocketClient, fields: Record<string, unknown> & { receiverId: number }): Promise<ChatMessage> {
  const answer = await attempt(client, fields);
  if (answer.type !== 'chatMessage') throw new Error(`the message was not stored: ${JSON.stringify(answer)}`);
  return answer.message;
}
