import type { App, AppContext } from '../context';
import type { DatabaseHandle } from '../db';
import type { Jobs } from '../jobs';
import type { Realtime } from '../realtime';
import type { OAuthProviders } from './oauth/providers';
import type { UserService } from './users/service';

/** The services more than one feature works with, built once by buildApp. */
export interface SharedServices {
  /** Profiles and their cache: the users, social, partner and account features share it. */
  users: UserService;
  /** The configured sign-in providers (the oauth and settings features). */
  oauthProviders: OAuthProviders;
}

/** What buildApp hands every feature plugin. */
export interface FeatureOptions {
  ctx: AppContext;
  /** Timed work: a feature adds its own jobs. */
  jobs: Jobs;
  database: DatabaseHandle;
  /** The websocket: a feature registers the client messages it answers. */
  realtime: Realtime;
  services: SharedServices;
}

/**
 * A feature of the server: a Fastify plugin, encapsulated, that registers its routes (those that
 * know the viewer in `viewerScope`, features/auth/access.ts), its socket messages and its jobs.
 */
export type Feature = (app: App, options: FeatureOptions) => Promise<void>;
