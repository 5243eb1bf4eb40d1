import type { AppContext } from '../context';
import { isAllowedEmbedOrigin } from '../features/auth/service';
import { TtlCache } from './ttl-cache';

/** How long a node trusts its answer about an origin; other nodes see a creator's change within it. */
export const originDecisionTtlMs = 30_000;

/**
 * Which browser origins may call the API: the platform's own, the partner sites of
 * CORS_ORIGINS, and every origin a creator listed for their widgets. Answers are cached per
 * origin, so a busy partner page costs one query per half minute, not one per request.
 */
export function createOriginPolicy(ctx: AppContext) {
  const decisions = new TtlCache<string, boolean>(originDecisionTtlMs, 5_000);

  return {
    async isAllowed(origin: string): Promise<boolean> {
      if (ctx.config.corsOrigins.includes(origin)) return true;
      const cached = decisions.get(origin);
      if (cached !== undefined) return cached;
      const allowed = await isAllowedEmbedOrigin(ctx, origin);
      decisions.set(origin, allowed);
      return allowed;
    },
    /** Call after a creator changes their list, so this node answers the change at once. */
    forget(origins: readonly string[]): void {
      for (const origin of origins) decisions.delete(origin);
    },
  };
}

export type OriginPolicy = ReturnType<typeof createOriginPolicy>;
