/**
 * What the page should do about a refused message: the prompt it opens (top up, verify the
 * e-mail) and the latest refusal, for the error sound.
 */
import { batch, signal, type ReadonlySignal } from '@preact/signals-core';
import type { ChatFailure } from '../../../contract/constants';
import { promptFor, type RefusalPrompt } from '../shared/errors';
import type { ChatFailureNotice, ChatPrompt } from './types';

export interface ChatNotices {
  readonly prompt: ReadonlySignal<ChatPrompt | null>;
  readonly lastFailure: ReadonlySignal<ChatFailureNotice | null>;
  /** Asks the page to open `kind` for the message `msgId` to `userId`. */
  ask(kind: RefusalPrompt, userId: number, msgId: string): void;
  /** Opens the prompt the server's refusal asks for, if any (`noCredit` → top up, `emailNotVerified` → verify). */
  askFor(refusal: string, userId: number, msgId: string): void;
  /** The message was discarded: a prompt about it is closed. */
  dismiss(msgId: string): void;
  clearPrompt(): void;
  /** A draft failed: every refusal is a new notice, even the same one twice. */
  failed(userId: number, msgId: string, failure: ChatFailure): void;
  reset(): void;
}

export function createChatNotices(): ChatNotices {
  const prompt = signal<ChatPrompt | null>(null);
  const lastFailure = signal<ChatFailureNotice | null>(null);
  let failureSerial = 0;

  function ask(kind: RefusalPrompt, userId: number, msgId: string): void {
    prompt.value = { kind, userId, msgId };
  }

  return {
    prompt,
    lastFailure,
    ask,
    askFor(refusal, userId, msgId) {
      const kind = promptFor(refusal);
      if (kind) ask(kind, userId, msgId);
    },
    dismiss(msgId) {
      if (prompt.peek()?.msgId === msgId) prompt.value = null;
    },
    clearPrompt() {
      prompt.value = null;
    },
    failed(userId, msgId, failure) {
      failureSerial += 1;
      lastFailure.value = { userId, msgId, failure, serial: failureSerial };
    },
    reset() {
      batch(() => {
        prompt.value = null;
        lastFailure.value = null;
      });
    },
  };
}
