import { Type, type Static } from 'typebox';

/**
 * `GET /papi/health/live` and `GET /papi/health/ready` (docs/server.md "Health checks"): a load
 * balancer or supervisor asks the first whether the process runs at all, the second whether it
 * can serve — the database answers and the server is not shutting down.
 */
export const Health = Type.Object({
  status: Type.Union([Type.Literal('live'), Type.Literal('ready')]),
  /** Seconds since the process started. */
  uptime: Type.Integer({ minimum: 0 }),
});
export type Health = Static<typeof Health>;
