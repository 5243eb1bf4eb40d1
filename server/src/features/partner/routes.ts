import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  ActionGirlBody,
  AdminPartnersQuery,
  CompanyCodeQuery,
  DocumentIdParams,
  DocumentLinkQuery,
  IdCheckStart,
  IdentityCheck,
  PartnerApplication,
  PartnerApplicationList,
  PartnerDecisionBody,
  PartnerFormBody,
  PartnerStatus,
  PartnerUserParams,
} from '../../../../lib/contract/partner';
import type { App } from '../../context';
import { AppError } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { requireLevel, viewerOf } from '../auth/guard';
import { cookieToSet, setCookieHeader } from '../cookies/domain';
import { isPartnerCode } from './domain';
import { createIdentityProviders } from './identity';
import { registerIdentitySandboxPage } from './identity/sandbox-page';
import { createPartnerService, purgeIdentityDocuments } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** Checks a JSON body kept as text: it must parse and must not try to set an object's prototype. */
function jsonProblem(text: string): 'empty' | 'invalid' | null {
  if (text.trim() === '') return 'empty';
  try {
    JSON.parse(text);
  } catch {
    return 'invalid';
  }
  return /"(?:__proto__|constructor)"\s*:/.test(text) ? 'invalid' : null;
}

/**
 * The partner programme (SPEC §7 Partner): the partner form, the identity check at an identity
 * provider (the built-in sandbox where it runs, docs/identity.md), badge
 * confirmation, partner codes, and the administrators' queue of applications.
 */
export async function partnerFeature(app: App, { ctx, jobs, services }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const userService = services.users;
  const { providers, sandbox, defaultProvider } = createIdentityProviders(ctx);
  const service = createPartnerService(ctx, { providers, defaultProvider, users: userService });
  const tags = ['partner'];
  const adminTags = ['admin'];

  api.get(
    '/api/partner',
    { schema: { tags, summary: 'The viewer’s place in the partner programme: approvedState, the partner form, the latest identity check', response: { 200: BodyEnvelope(PartnerStatus) } } },
    async (request) => withBody(await service.status(viewerOf(request).id)),
  );

  api.put(
    '/api/partner',
    {
      schema: {
        tags,
        summary:
          'Save the partner form (in 0, 7, 101 or 120; 0 becomes 7). Each field is checked with the settings’ partnerValidation expressions: partner-invalid-name, -street, -zip, -country, -iban (also the check sum), -company-id, with `body.field`',
        body: PartnerFormBody,
        response: { 200: BodyEnvelope(PartnerStatus) },
      },
    },
    async (request) => withBody(await service.saveForm(viewerOf(request).id, request.body)),
  );

  api.get(
    '/api/partner/reg-done',
    {
      schema: {
        tags,
        summary: 'Finish the registration (7 → 101: verify your identity next); `companyCode`, optional, is the `C-` code of the partner who brought the applicant (invalid-code otherwise)',
        querystring: CompanyCodeQuery,
        response: { 200: BodyEnvelope(PartnerStatus) },
      },
    },
    async (request) => withBody(await service.registrationDone(viewerOf(request).id, request.query.companyCode)),
  );

  app.get(
    '/papi/partner/check-code',
    {
      schema: {
        tags,
        summary: 'Whether `companyCode` is the `C-` code of a partner (10 characters): statusCode 1 and the `affcode` cookie for 31 days, else invalid-code',
        querystring: CompanyCodeQuery,
        response: { 200: OkEnvelope },
      },
    },
    async (request, reply) => {
      // Codes are upper case; one typed in lower case is the same code.
      const code = (request.query.companyCode?.trim() ?? '').toUpperCase();
      if (!isPartnerCode(code) || !(await service.isValidCode(code))) throw new AppError('invalid-code', { body: { field: 'companyCode' } });
      const cookie = cookieToSet('affcode', code, undefined);
      const secure = request.protocol === 'https' || ctx.config.publicUrl.startsWith('https://');
      if (cookie !== null) reply.header('Set-Cookie', setCookieHeader(cookie, secure));
      return ok;
    },
  );

  api.get(
    '/api/partner/cancel-verification',
    {
      schema: { tags, summary: 'Leave the programme before approval (7, 101, 105, 107, 110 → 0); a running identity check is cancelled', response: { 200: BodyEnvelope(PartnerStatus) } },
    },
    async (request) => withBody(await service.cancel(viewerOf(request).id)),
  );

  api.post(
    '/api/partner/confirm-badge',
    { schema: { tags, summary: 'An approved partner (120) shows the verified badge on the profile', response: { 200: BodyEnvelope(PartnerStatus) } } },
    async (request) => withBody(await service.confirmBadge(viewerOf(request).id, true)),
  );

  api.post(
    '/api/partner/confirm-no-badge',
    { schema: { tags, summary: 'An approved partner (120) does not show the verified badge', response: { 200: BodyEnvelope(PartnerStatus) } } },
    async (request) => withBody(await service.confirmBadge(viewerOf(request).id, false)),
  );

  api.post(
    '/api/partner/action-girl',
    {
      schema: {
        tags,
        summary: 'A partner answers the action-girl offer (actionGirlOffer notification): actionState 2 accepts, 3 refuses; not-found without an open offer',
        body: ActionGirlBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await service.actionGirl(viewerOf(request).id, request.body.actionState);
      return ok;
    },
  );

  api.get(
    '/api/partner/start-id-check',
    {
      schema: {
        tags,
        summary: 'Start an identity check (101 → 105): answers the provider page to send the person to; afterwards the provider returns them to /verify-request?check=',
        response: { 200: BodyEnvelope(IdCheckStart) },
      },
    },
    async (request) => withBody(await service.startIdCheck(viewerOf(request).id, request.language)),
  );

  api.get(
    '/api/partner/check-id-check',
    {
      schema: {
        tags,
        summary: 'The latest identity check: statusCode 2 when approved; otherwise -1 with id-check-pending, id-check-review, id-check-declined or id-check-not-started (and the check as body)',
        response: { 200: BodyEnvelope(IdentityCheck) },
      },
    },
    async (request) => withBody(await service.checkIdCheck(viewerOf(request).id)),
  );

  async function sendDocument(reply: FastifyReply, key: string) {
    const file = await ctx.storage.open(key);
    if (file === null) throw new AppError('not-found');
    return reply
      .header('Content-Type', 'image/webp')
      .header('Content-Length', file.size)
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .send(file.stream);
  }

  api.get(
    '/api/partner/documents/:id',
    {
      schema: { tags, summary: 'A picture of an identity check (image/webp), for its owner and administrators only; not-found for anyone else', params: DocumentIdParams, produces: ['image/webp'] },
    },
    async (request, reply) => sendDocument(reply, await service.documentFor(viewerOf(request), request.params.id)),
  );

  app.get(
    '/papi/partner/documents/:id',
    {
      schema: {
        tags,
        summary: 'A picture of an identity check behind the signed link (`exp`, `sig`) that GET /api/partner and the admin queue hand out, valid 15 minutes; not-found otherwise',
        params: DocumentIdParams,
        querystring: DocumentLinkQuery,
        produces: ['image/webp'],
      },
    },
    async (request, reply) => sendDocument(reply, await service.documentByLink(request.params.id, request.query.exp, request.query.sig)),
  );

  // Administrators (level 500).
  api.get(
    '/api/admin/partners',
    {
      schema: {
        tags: adminTags,
        summary: 'Partner applications (admins): `filter=queue` (default) those waiting for a decision — 110 verified, 107 review — oldest first; `all` every applicant. With documents and past decisions',
        querystring: AdminPartnersQuery,
        response: { 200: BodyEnvelope(PartnerApplicationList) },
      },
    },
    async (request) => {
      requireLevel(request, 500);
      return withBody(await service.applications(request.query));
    },
  );

  api.get(
    '/api/admin/partners/:userId',
    {
      schema: { tags: adminTags, summary: 'One application (admins)', params: PartnerUserParams, response: { 200: BodyEnvelope(PartnerApplication) } },
    },
    async (request) => {
      requireLevel(request, 500);
      return withBody(await service.application(request.params.userId));
    },
  );

  api.post(
    '/api/admin/partners/:userId/approve',
    {
      schema: {
        tags: adminTags,
        summary: 'Approve an application (admins; 110 or 107 → 120): the account becomes a partner and a seller, gets its partner code and a partnerApproved notification. Logged with who decided',
        params: PartnerUserParams,
        body: PartnerDecisionBody,
        response: { 200: BodyEnvelope(PartnerApplication) },
      },
    },
    async (request) => {
      const admin = requireLevel(request, 500);
      return withBody(await service.decide(admin.id, request.params.userId, 'approve', request.body.reason));
    },
  );

  api.post(
    '/api/admin/partners/:userId/decline',
    {
      schema: {
        tags: adminTags,
        summary: 'Decline an application (admins; 110 → 7, 107 → 101) with the `reason` the applicant reads (required). Logged with who decided',
        params: PartnerUserParams,
        body: PartnerDecisionBody,
        response: { 200: BodyEnvelope(PartnerApplication) },
      },
    },
    async (request) => {
      const admin = requireLevel(request, 500);
      return withBody(await service.decide(admin.id, request.params.userId, 'decline', request.body.reason));
    },
  );

  for (const [path, action, summary] of [
    [
      'revoke-badge',
      'revokeBadge',
      'Take a partner’s verified badge away (admins; 120 only) with the `reason` (required) logged with who decided: the profile shows no badge, badgeVerifiedState becomes 0 and confirm-badge answers badge-revoked',
    ],
    ['restore-badge', 'restoreBadge', 'Give a revoked badge back (admins; 120 only): badgeVerifiedState 3 again, and the partner chooses again whether to show it. Logged with who decided'],
  ] as const) {
    api.post(
      `/api/admin/partners/:userId/${path}`,
      {
        schema: { tags: adminTags, summary, params: PartnerUserParams, body: PartnerDecisionBody, response: { 200: BodyEnvelope(PartnerApplication) } },
      },
      async (request) => {
        const admin = requireLevel(request, 500);
        return withBody(await service.setBadge(admin.id, request.params.userId, action, request.body.reason));
      },
    );
  }

  api.post(
    '/api/admin/partners/:userId/action-girl-offer',
    {
      schema: { tags: adminTags, summary: 'Offer a partner the action-girl programme (admins): an actionGirlOffer notification. Logged', params: PartnerUserParams, response: { 200: OkEnvelope } },
    },
    async (request) => {
      const admin = requireLevel(request, 500);
      await service.offerActionGirl(admin.id, request.params.userId);
      return ok;
    },
  );

  // Providers' callbacks read the exact bytes their signature covers; the sandbox's page takes
  // a multipart form of three pictures.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 65_536 }, (_request, body, done) => {
      const text = String(body);
      const problem = jsonProblem(text);
      if (problem === null) done(null, text);
      else done(Object.assign(new Error(problem === 'empty' ? 'The JSON body is empty' : 'The body is not valid JSON'), { statusCode: 400, code: problem === 'empty' ? 'FST_ERR_CTP_EMPTY_JSON_BODY' : 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    });
    await scope.register(multipart, { limits: { fileSize: ctx.config.mediaMaxImageBytes, files: 3, fields: 2, parts: 5 } });

    for (const provider of providers.values()) {
      scope.post(
        `/papi/identity/${provider.name}/callback`,
        {
          schema: {
            tags,
            summary: `Where ${provider.name} reports an identity check’s verdict; authenticated by the provider’s signature (invalid-signature), each event taken once and only while fresh (callback-replayed)`,
            response: { 200: OkEnvelope },
          },
        },
        async (request) => {
          const rawBody = typeof request.body === 'string' ? request.body : '';
          const event = await provider.verifyCallback({ headers: request.headers, rawBody });
          await service.applyIdentityEvent(provider.name, event);
          return ok;
        },
      );
    }

    if (sandbox !== null) registerIdentitySandboxPage(scope as unknown as App, ctx, { keys: sandbox.keys, service });
  });

  jobs.add({ name: 'identity-documents-purge', everyMs: 60 * 60_000, run: purgeIdentityDocuments });
}
