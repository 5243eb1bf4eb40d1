/**
 * A seller's mass messages: one message to a whole group of fans (SPEC §2 ChatList, mass
 * messages), sent over the websocket and acknowledged by the server with the stored message.
 */
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { MassGroup, MassHistory, MassMessage } from '../../../contract';
import type { ChatApi } from '../../api-chat';
import { SdkError } from '../../errors';
import { chatDraftProblem } from '../../rules/chat';
import { pageSizes } from '../../rules/constants';
import type { FanstageSocket } from '../../socket';
import { newIdempotencyKey } from '../shared/keys';
import type { Conversations } from './conversations';
import type { MassConversation } from './types';

export interface MassDeps {
  api: ChatApi;
  socket: FanstageSocket;
  me(): number | null;
  /** How long a sent message may wait for the server's acknowledgement. */
  ackTimeoutMs: number;
  /** Bumped by the store's reset: an answer asked for under an older one is dropped. */
  generation(): number;
  conversations: Pick<Conversations, 'status' | 'fetchList'>;
}

export function createMassMessages({ api, socket, me, ackTimeoutMs, generation, conversations }: MassDeps) {
  const historySize = pageSizes.chatHistory;
  const groups = signal<readonly MassConversation[] | null>(null);
  const waiting = new Map<string, { resolve: (message: MassMessage) => void; reject: (error: SdkError) => void; timer: ReturnType<typeof setTimeout> }>();

  function settle(msgId: string): { resolve: (message: MassMessage) => void; reject: (error: SdkError) => void } | null {
    const entry = waiting.get(msgId);
    if (!entry) return null;
    clearTimeout(entry.timer);
    waiting.delete(msgId);
    return entry;
  }

  return {
    groups: groups as ReadonlySignal<readonly MassConversation[] | null>,
    async loadGroups(): Promise<readonly MassConversation[]> {
      const asOf = generation();
      const answer = await api.massGroups();
      if (asOf === generation()) groups.value = answer.groups;
      return answer.groups;
    },
    history: (group: MassGroup, ts?: number): Promise<MassHistory> => api.massHistory(group, { limit: historySize, ...(ts ? { ts } : {}) }),
    /**
     * Sends one message to a whole group; resolves with the stored mass message. Rejects with
     * `message_not_send-offline` when the socket is not open, the server's reason when it
     * refuses, `timeout` without an answer (sending again with the same `msgId` is harmless).
     */
    send(group: MassGroup, draft: { text?: string; mediaId?: number }, msgId: string = newIdempotencyKey()): Promise<MassMessage> {
      const problem = chatDraftProblem(draft);
      if (problem) return Promise.reject(new SdkError({ code: problem, statusCode: -1 }));
      return new Promise<MassMessage>((resolve, reject) => {
        const text = draft.text?.trim();
        const sent = socket.send({
          type: 'massChatMessage',
          msgId,
          ...(me() !== null ? { senderId: me() as number } : {}),
          recGroup: group,
          ...(text ? { text } : {}),
          ...(draft.mediaId ? { mediaId: draft.mediaId } : {}),
        });
        if (!sent) {
          reject(new SdkError({ code: 'message_not_send-offline', statusCode: 0, retryable: true }));
          return;
        }
        const timer = setTimeout(() => settle(msgId)?.reject(new SdkError({ code: 'timeout', statusCode: 0, retryable: true, body: { msgId } })), ackTimeoutMs);
        waiting.set(msgId, { resolve, reject, timer });
      });
    },
    acknowledged(message: MassMessage): void {
      settle(message.msgId)?.resolve(message);
      const list = groups.peek();
      if (list) groups.value = list.map((g) => (g.recGroup === message.recGroup ? { ...g, lastMessage: message } : g));
      // Each receiver's copy reaches only them: the sender's list learns of them by asking.
      if (conversations.status.peek() !== 'idle') void conversations.fetchList(true);
    },
    refused(msgId: string, reason: string): void {
      settle(msgId)?.reject(new SdkError({ code: reason, statusCode: -1, body: { msgId } }));
    },
    reset(): void {
      for (const [msgId] of waiting) settle(msgId)?.reject(new SdkError({ code: 'aborted', statusCode: 0 }));
      groups.value = null;
    },
  };
}

export type MassMessages = ReturnType<typeof createMassMessages>;
