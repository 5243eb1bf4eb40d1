import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { AbusePreview, AbuseReasons, AbuseReportBody, AbuseTargetQuery, AbuseReportReceipt, AdminAbuseQuery, AdminAbuseReport, ModerationActionParams, ModerationResult, abuseLimits } from '../../../../lib/contract/abuse';
import { Type } from 'typebox';
import type { App } from '../../context';
import { withBody } from '../../http/envelope';
import { throttles } from '../../http/throttle';
import { requireLevel, viewerOf } from '../auth/guard';
import { ADMIN_LEVEL, abuseQueuePageSize } from './domain';
import { createAbuseService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** Reports of content (SPEC §7 POST /api/abuse) and the administrators' moderation queue. */
export async function abuseFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const abuse = createAbuseService(ctx);
  const adminTags = ['admin'];
  const limit = throttles['abuse-reporter'];

  api.post(
    '/api/abuse',
    {
      schema: {
        tags: ['users'],
        summary: `Report a profile (\`user\`), a post, a comment or a chat message (\`message\`) for moderation, with a reason (${AbuseReasons.join(', ')}) and an optional text (at most ${abuseLimits.text} characters). Only what the reporter can see: a post or comment not behind a block (post-doesnt-exists, comment-not-found), a message of their own conversation (message-not-found), an active profile (user-not-found); never one's own (cannot-target-self). One open report per reporter and thing (already-reported); at most ${limit.limit} reports an hour (too-many-requests). The report keeps a snapshot of the thing`,
        body: AbuseReportBody,
        response: { 200: BodyEnvelope(AbuseReportReceipt) },
      },
    },
    async (request) => withBody(await abuse.report(viewerOf(request).id, request.body)),
  );

  api.get(
    '/api/abuse/target',
    {
      schema: {
        tags: ['users'],
        summary: 'What the report form shows of the thing to report (its text, author and how many media), under the rules of POST /api/abuse: the same not-found answers, cannot-target-self for one’s own',
        querystring: AbuseTargetQuery,
        response: { 200: BodyEnvelope(AbusePreview) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return withBody(await abuse.preview(viewerOf(request).id, request.query.type, request.query.id));
    },
  );

  api.get(
    '/api/admin/abuse',
    {
      schema: {
        tags: adminTags,
        summary: `The open reports (admins), newest first, ${abuseQueuePageSize} a page: the reported thing as it was reported, whether it is still there, the reporter, the author, the reason and text`,
        querystring: AdminAbuseQuery,
        response: { 200: BodyEnvelope(Type.Array(AdminAbuseReport)) },
      },
    },
    async (request, reply) => {
      requireLevel(request, ADMIN_LEVEL);
      reply.header('Cache-Control', 'no-store');
      return withBody(await abuse.queue(request.query.limit ?? abuseQueuePageSize, request.query.offset ?? 0));
    },
  );

  api.post(
    '/api/admin/abuse/:id/:action',
    {
      schema: {
        tags: adminTags,
        summary:
          'Act on an open report (admins): `hide-post` takes the post off every list and page for everyone, `delete-comment` and `delete-message` delete the thing — each tells its author with notificationDeletedByAdmin and closes every open report of the thing; `ban` blocks the author (no sign-in, sessions and sockets end) and closes every open report of theirs; `dismiss` closes this report. An action that does not fit the report answers moderation-not-applicable, a closed or unknown report report-not-found. Logged with the administrator',
        params: ModerationActionParams,
        response: { 200: BodyEnvelope(ModerationResult) },
      },
    },
    async (request) => {
      const admin = requireLevel(request, ADMIN_LEVEL);
      return withBody(await abuse.act(admin.id, request.params.id, request.params.action));
    },
  );

}
