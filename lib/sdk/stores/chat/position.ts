/**
 * Where the viewer's chat stream has been seen up to (docs/realtime.md "Resume"). Every message
 * the server sends names its position in the viewer's stream (`seq`: 1, 2, 3, … without gaps);
 * a reconnection resumes after the position up to which every message has been seen.
 */

export interface StreamPosition {
  /**
   * Every message of the stream up to this position has been seen; null while not known yet
   * (before the first connection, after a reset).
   */
  readonly through: number | null;
  /** A message at `seq` arrived (live or resumed). */
  saw(seq: number): void;
  /** Positions `from`…`to` arrived at once: a mass message's copies, which the sender never gets one by one. */
  sawRange(from: number, to: number): void;
  /** Everything up to `at` counts as seen (the first connection: what is held, or where the stream opened). */
  start(at: number): void;
  /**
   * The server sent everything up to `last` in answer to a resume after `askedAfter`. Below
   * the position asked after, the server's stream is not the one ours came from (a reset
   * database): its word counts.
   */
  resumed(last: number, askedAfter: number): void;
  reset(): void;
}

/**
 * Positions are gapless and commit in order on the server, but two messages may be published in
 * the other order: one that arrives early waits in `ahead` until the hole below it is filled, so
 * a reconnection never resumes past a message that is still on its way.
 */
export function createStreamPosition(): StreamPosition {
  let through: number | null = null;
  const ahead = new Set<number>();

  function advance(): void {
    if (through === null) return;
    for (const seq of ahead) if (seq <= through) ahead.delete(seq);
    while (ahead.delete(through + 1)) through += 1;
  }

  return {
    get through() {
      return through;
    },
    saw(seq) {
      if (through !== null && seq <= through) return;
      ahead.add(seq);
      advance();
    },
    sawRange(from, to) {
      if (through !== null && from <= through + 1) {
        through = Math.max(through, to);
        advance();
        return;
      }
      for (let seq = from; seq <= to; seq++) ahead.add(seq);
      advance();
    },
    start(at) {
      through = at;
      advance();
    },
    resumed(last, askedAfter) {
      if (through === null || last < askedAfter) {
        ahead.clear();
        through = last;
      } else through = Math.max(through, last);
      advance();
    },
    reset() {
      through = null;
      ahead.clear();
    },
  };
}
