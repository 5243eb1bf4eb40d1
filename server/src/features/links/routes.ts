import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { CreateLinkBody, DiscountQuery, FirstMonthDiscount, LinkIdParams, LinkLanding, LinkVisitBody, Statistics, StatisticsQuery, TrackingLink, TrialBody, WidgetLinkVisitBody } from '../../../../lib/contract/links';
import { Subscription } from '../../../../lib/contract/subscriptions';
import type { App } from '../../context';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';
import { withBody } from '../../http/envelope';
import { platformOnly } from '../../http/origins';
import { requireVerifiedEmail, viewerOf } from '../auth/guard';
import { createSubscriptionService } from '../subscriptions/service';
import { createLinkService } from './service';
import { statisticsOf } from './statistics';
import { takeTrial } from './trials';
import { discountFor } from './discounts';
import { VISITOR_COOKIE, visitorOf } from './visits';

const VISITOR_DAYS = 60;

/** Tracking links, free trials and a creator's statistics (issue 34, docs/creators.md). */
export async function linksFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const links = createLinkService(ctx);
  const subscriptionsOf = createSubscriptionService(ctx);
  const tags = ['links'];
  const secure = (request: FastifyRequest) => request.protocol === 'https' || ctx.config.publicUrl.startsWith('https://');

  api.get(
    '/api/links',
    { schema: { tags, summary: 'The creator’s tracking links, newest first, each with its visits, sign-ups, follows, subscriptions and revenue; -2 verify-required for a non-creator', response: { 200: BodyEnvelope(Type.Array(TrackingLink)) } } },
    async (request) => withBody(await links.list(viewerOf(request).id)),
  );

  api.post(
    '/api/links',
    {
      schema: {
        tags,
        summary: 'Make a named tracking link, optionally with a free trial of one of the creator’s offers; link-name-taken while a live link has the name, offer-not-found',
        body: CreateLinkBody,
        response: { 200: BodyEnvelope(TrackingLink) },
      },
    },
    async (request) => withBody(await links.create(viewerOf(request).id, request.body)),
  );

  api.post(
    '/api/links/:id/end',
    { schema: { tags, summary: 'End a link: no more visits or trials counted; link-not-found', params: LinkIdParams, response: { 200: BodyEnvelope(TrackingLink) } } },
    async (request) => withBody(await links.end(viewerOf(request).id, request.params.id)),
  );

  api.post(
    '/papi/links/visit',
    {
      // The platform's own pages: the visitor cookie is first-party there.
      preHandler: platformOnly,
      schema: {
        tags,
        summary: 'Record a visit through `/{username}?l={code}` (the fs_visitor cookie names the browser until it signs up or in); answers the link’s free trial if open; link-not-found',
        body: LinkVisitBody,
        response: { 200: BodyEnvelope(LinkLanding) },
      },
    },
    async (request, reply) => {
      let visitor = visitorOf(request);
      if (visitor === null) {
        visitor = randomBytes(16).toString('base64url');
        reply.setCookie(VISITOR_COOKIE, visitor, { httpOnly: true, sameSite: 'lax', secure: secure(request), path: '/', maxAge: VISITOR_DAYS * 24 * 60 * 60 });
      }
      return withBody(await links.visit(request.body.username, request.body.code, visitor, request.viewer?.id ?? null));
    },
  );

  api.post(
    '/papi/links/widget-visit',
    {
      schema: {
        tags,
        summary:
          'Record a visit through a widget’s `link` attribute on any page: for the widget’s signed-in fan, or for a visitor id the server gives (answered as `visitor`; the page hands it over at /papi/embed/exchange). The link must be the widget creator’s when `username` is given; link-not-found',
        body: WidgetLinkVisitBody,
        response: { 200: BodyEnvelope(LinkLanding) },
      },
    },
    async (request) => {
      const viewerId = request.viewer?.id ?? null;
      // The id is the server's, made on the page's first visit; the page sends it back with its later ones.
      const visitor = request.body.visitor ?? randomBytes(16).toString('base64url');
      const landing = await links.visit(request.body.username ?? null, request.body.code, visitor, viewerId);
      return withBody(viewerId === null ? { ...landing, visitor } : landing);
    },
  );

  api.post(
    '/api/links/trial',
    {
      schema: {
        tags,
        summary: 'Take the free trial a link carries: a subscription running its days with nothing paid, once per fan and creator; trial-used, trial-unavailable, already-subscribed, link-not-found',
        body: TrialBody,
        response: { 200: BodyEnvelope(Subscription) },
      },
    },
    async (request) => {
      const fan = requireVerifiedEmail(request);
      const id = await takeTrial(ctx, fan.id, request.body.code);
      return withBody(await subscriptionsOf.view(id, fan.id));
    },
  );

  api.get(
    '/api/links/discount',
    {
      schema: {
        tags,
        summary: 'The first-month discount the viewer’s next subscription to the creator would get now (the link that brought him carries one he may still use), for the purchase to show; null for none',
        querystring: DiscountQuery,
        response: { 200: BodyEnvelope(FirstMonthDiscount) },
      },
    },
    async (request) => withBody({ discount: await discountFor(ctx.db, viewerOf(request).id, request.query.creatorId, ctx.clock.now()) }),
  );

  api.get(
    '/api/statistics',
    {
      schema: {
        tags,
        summary: 'The creator’s earnings per day, week or month of her time zone from the ledger, by kind, place and link; subscribers gained and lost; top fans; posts. -2 verify-required for a non-creator',
        querystring: StatisticsQuery,
        response: { 200: BodyEnvelope(Statistics) },
      },
    },
    async (request) => {
      const creatorId = viewerOf(request).id;
      await links.requireCreator(creatorId);
      return withBody(await statisticsOf(ctx, creatorId, request.query));
    },
  );
}
