import { request, type FullConfig } from '@playwright/test';
import { demoCreatorNames, giveTestPassword } from './postsSupport';

/**
 * Before the journeys, once a run: the seeded creators get the test password (postsSupport.ts).
 * Journeys on two workers may sign in as the same creator at the same moment; a reset then, by
 * whichever came first, would end the other's sessions, and the two would race for the mailed
 * link. Playwright starts the web server before this setup, so the server is up.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]!.use.baseURL!;
  const api = await request.newContext({ baseURL });
  try {
    await Promise.all(demoCreatorNames.map((username) => giveTestPassword(api, `${username}@example.com`)));
  } finally {
    await api.dispose();
  }
}
