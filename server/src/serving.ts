import type { App } from './context';
import { AppError } from './errors';
import { verifyAccessToken } from './features/auth/guard';
import type { FeatureOptions } from './features/feature';

/**
 * The server at work, registered after every feature: the websocket opens on the HTTP server's
 * upgrade event with the messages the features registered (docs/realtime.md), and the timed jobs
 * run where the server really serves. Its start hook runs after the features' own, and its
 * shutdown hook after theirs: hooks of sibling plugins run in the order they were registered.
 */
export async function serving(app: App, { ctx, jobs, realtime }: FeatureOptions): Promise<void> {
  // GET /ws/: features answer their own client messages; the transport knows none of them.
  realtime.start(app.server, async (token) => {
    // A socket presents its token once: it is checked, not remembered, so a crowd of sockets
    // neither holds memory for their tokens nor pushes out the tokens requests use again.
    const { viewer, sessionFamily } = await verifyAccessToken(ctx, token, { remember: false }).catch((error: unknown) => {
      // A refused token is the client's to refresh; a database that cannot be reached is not.
      if (error instanceof AppError) return { viewer: null, sessionFamily: null };
      throw error;
    });
    return viewer === null ? null : { userId: viewer.id, sessionFamily, origin: viewer.origin };
  });
  // After the features' own shutdown hooks: a call ended by the shutdown still tells both people
  // before their sockets close with 1001.
  app.addHook('preClose', async () => realtime.closeSockets());
  // Timers only where the server really serves; tests run jobs themselves.
  if (ctx.config.nodeEnv !== 'test') {
    app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => jobs.stop());
  }
}
