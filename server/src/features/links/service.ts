import { randomInt } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { CreateLinkBody, LinkLanding, TrackingLink } from '../../../../lib/contract/links';
import type { AppContext } from '../../context';
import { linkVisits, subscriptionOffers, trackingLinks, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { Tx } from '../../ledger';
import { discountedCents } from '../../../../lib/contract/rules/price';
import { discountOpen, discountsTaken } from './discounts';

type LinkRow = typeof trackingLinks.$inferSelect;

const CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const newCode = () => Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

/** What each link brought, counted from its visits, the follows and trials after them and the spends it is named on. */
async function countsOf(tx: Tx, creatorId: number): Promise<Map<number, { visits: number; signups: number; follows: number; subscriptions: number; revenue: number }>> {
  const found = rows<{ id: number; visits: string; signups: string; follows: string; subscriptions: string; revenue: string }>(
    await tx.execute(sql`
      with mine as (select id from tracking_links where creator_id = ${creatorId}::integer),
      visits as (
        select v.link_id, count(*) as visits, count(distinct v.user_id) filter (where v.signed_up) as signups
        from link_visits v where v.link_id in (select id from mine) group by v.link_id
      ), firsts as (
        select v.link_id, v.user_id, min(v.created_at) as first from link_visits v
        where v.link_id in (select id from mine) and v.user_id is not null group by v.link_id, v.user_id
      ), followed as (
        select f.link_id, count(*) as follows from firsts f
        join follows w on w.follower_id = f.user_id and w.followed_id = ${creatorId}::integer and w.created_at >= f.first
        group by f.link_id
      ), subscribed as (
        select link_id, count(distinct fan_id) as subscriptions from (
          select link_id, fan_id from spend_attributions where creator_id = ${creatorId}::integer and kind = 'subscription' and link_id is not null
          union select link_id, fan_id from link_trials where creator_id = ${creatorId}::integer
        ) s group by link_id
      ), revenue as (
        select link_id, sum(earned_cents) as revenue from spend_attributions
        where creator_id = ${creatorId}::integer and link_id is not null group by link_id
      )
      select m.id, coalesce(v.visits, 0) as visits, coalesce(v.signups, 0) as signups, coalesce(f.follows, 0) as follows,
        coalesce(s.subscriptions, 0) as subscriptions, coalesce(r.revenue, 0) as revenue
      from mine m left join visits v on v.link_id = m.id left join followed f on f.link_id = m.id
      left join subscribed s on s.link_id = m.id left join revenue r on r.link_id = m.id`),
  );
  return new Map(
    found.map((r) => [
      Number(r.id),
      { visits: Number(r.visits), signups: Number(r.signups), follows: Number(r.follows), subscriptions: Number(r.subscriptions), revenue: Number(r.revenue) },
    ]),
  );
}

export function createLinkService(ctx: AppContext) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

  async function requireCreator(userId: number): Promise<{ username: string }> {
    const [me] = await db.select({ username: users.username, isSeller: users.isSeller, isPartner: users.isPartner }).from(users).where(eq(users.id, userId));
    if (!me || (!me.isSeller && !me.isPartner)) throw new AppError('verify-required', { statusCode: -2, body: { field: 'trackingLink' } });
    return me;
  }

  async function present(creatorId: number, username: string, links: LinkRow[]): Promise<TrackingLink[]> {
    const counts = await countsOf(db, creatorId);
    const offers = await db.select({ id: subscriptionOffers.id, name: subscriptionOffers.name, priceCents: subscriptionOffers.priceCents }).from(subscriptionOffers).where(eq(subscriptionOffers.userId, creatorId));
    const taken = rows<{ link_id: number; n: string }>(await db.execute(sql`select link_id, count(*) as n from link_trials where creator_id = ${creatorId}::integer group by link_id`));
    const discounted = links.some((link) => link.discountOfferId !== null) ? await discountsTaken(db, creatorId) : new Map<number, number>();
    return links.map((link) => {
      const c = counts.get(link.id) ?? { visits: 0, signups: 0, follows: 0, subscriptions: 0, revenue: 0 };
      const offer = offers.find((o) => o.id === link.trialOfferId);
      const discountOffer = offers.find((o) => o.id === link.discountOfferId);
      return {
        id: link.id,
        name: link.name,
        code: link.code,
        url: `${ctx.config.publicUrl}/${encodeURIComponent(username)}?l=${link.code}`,
        createdAt: link.createdAt.getTime(),
        endedAt: link.endedAt?.getTime() ?? null,
        trial:
          offer && link.trialDays !== null
            ? {
                offerId: offer.id,
                offerName: offer.name,
                priceCents: offer.priceCents,
                days: link.trialDays,
                limit: link.trialLimit,
                until: link.trialUntil?.getTime() ?? null,
                then: link.trialThen === 'renew' ? ('renew' as const) : ('end' as const),
                taken: Number(taken.find((t) => Number(t.link_id) === link.id)?.n ?? 0),
              }
            : null,
        discount:
          discountOffer && link.discountPercent !== null
            ? {
                offerId: discountOffer.id,
                offerName: discountOffer.name,
                priceCents: discountOffer.priceCents,
                percent: link.discountPercent,
                firstMonthCents: discountedCents(discountOffer.priceCents, link.discountPercent),
                limit: link.discountLimit,
                until: link.discountUntil?.getTime() ?? null,
                taken: discounted.get(link.id) ?? 0,
              }
            : null,
        visits: c.visits,
        signups: c.signups,
        follows: c.follows,
        subscriptions: c.subscriptions,
        revenueCents: c.revenue,
      };
    });
  }

  /** What a link offers a visitor now: its open free trial or first-month discount, with its offer. */
  async function landingOf(link: LinkRow): Promise<LinkLanding> {
    const at = now();
    const limit = link.trialLimit ?? link.discountLimit;
    // A limit reached shows nothing more (taking or paying checks it again under the link's lock).
    if (limit !== null) {
      const [{ n } = { n: 0 }] = rows<{ n: number }>(
        await db.execute(sql`select (select count(*) from link_trials where link_id = ${link.id}::integer) + (select count(*) from link_discounts where link_id = ${link.id}::integer) as n`),
      );
      if (Number(n) >= limit) return { trial: null, discount: null };
    }
    const offerId = trialOpen(link, at) ? link.trialOfferId : discountOpen(link, at) ? link.discountOfferId : null;
    const [offer] =
      offerId === null
        ? []
        : await db
            .select({ id: subscriptionOffers.id, name: subscriptionOffers.name, priceCents: subscriptionOffers.priceCents })
            .from(subscriptionOffers)
            .where(and(eq(subscriptionOffers.id, offerId), isNull(subscriptionOffers.deletedAt), isNull(subscriptionOffers.archivedAt)));
    if (!offer) return { trial: null, discount: null };
    if (link.trialDays !== null && link.trialOfferId === offer.id) return { trial: { offerId: offer.id, offerName: offer.name, days: link.trialDays }, discount: null };
    const percent = link.discountPercent!;
    return { trial: null, discount: { offerId: offer.id, offerName: offer.name, percent, priceCents: offer.priceCents, firstMonthCents: discountedCents(offer.priceCents, percent) } };
  }

  return {
    requireCreator,

    /** The creator's links, newest first, each with what it brought. */
    async list(creatorId: number): Promise<TrackingLink[]> {
      const { username } = await requireCreator(creatorId);
      const links = await db.select().from(trackingLinks).where(eq(trackingLinks.creatorId, creatorId)).orderBy(desc(trackingLinks.id));
      return present(creatorId, username, links);
    },

    /** Makes a named link (a name is one live link's); a trial must be of one of her own offers. */
    async create(creatorId: number, body: CreateLinkBody): Promise<TrackingLink> {
      const { username } = await requireCreator(creatorId);
      const name = body.name.trim();
      if (name === '') throw new AppError('invalid-request', { body: { location: 'body', field: 'name', reason: 'must not be blank' } });
      if (body.trial && body.discount) throw new AppError('invalid-request', { body: { location: 'body', field: 'discount', reason: 'a link carries a free trial or a discount, not both' } });
      // A trial or a discount is of one of her own open offers.
      const offerId = body.trial?.offerId ?? body.discount?.offerId;
      if (offerId !== undefined) {
        const [offer] = await db
          .select({ id: subscriptionOffers.id })
          .from(subscriptionOffers)
          .where(and(eq(subscriptionOffers.id, offerId), eq(subscriptionOffers.userId, creatorId), isNull(subscriptionOffers.deletedAt), isNull(subscriptionOffers.archivedAt)));
        if (!offer) throw new AppError('offer-not-found');
      }
      const [taken] = await db
        .select({ id: trackingLinks.id })
        .from(trackingLinks)
        .where(and(eq(trackingLinks.creatorId, creatorId), isNull(trackingLinks.endedAt), sql`lower(${trackingLinks.name}) = lower(${name})`));
      if (taken) throw new AppError('link-name-taken');
      const [created] = await db
        .insert(trackingLinks)
        .values({
          creatorId,
          name,
          code: newCode(),
          trialOfferId: body.trial?.offerId ?? null,
          trialDays: body.trial?.days ?? null,
          trialLimit: body.trial?.limit ?? null,
          trialUntil: body.trial?.until === undefined ? null : new Date(body.trial.until),
          trialThen: body.trial?.then ?? null,
          discountOfferId: body.discount?.offerId ?? null,
          discountPercent: body.discount?.percent ?? null,
          discountLimit: body.discount?.limit ?? null,
          discountUntil: body.discount?.until === undefined ? null : new Date(body.discount.until),
          createdAt: now(),
        })
        .onConflictDoNothing()
        .returning();
      // Two links of one name at once, or (rarely) a code already used: the name is the likelier.
      if (!created) throw new AppError('link-name-taken');
      return (await present(creatorId, username, [created]))[0]!;
    },

    /** Ends a link: it counts no more visits and offers no more trials; what it brought stays. */
    async end(creatorId: number, id: number): Promise<TrackingLink> {
      const { username } = await requireCreator(creatorId);
      await db
        .update(trackingLinks)
        .set({ endedAt: now() })
        .where(and(eq(trackingLinks.id, id), eq(trackingLinks.creatorId, creatorId), isNull(trackingLinks.endedAt)));
      const [link] = await db.select().from(trackingLinks).where(and(eq(trackingLinks.id, id), eq(trackingLinks.creatorId, creatorId)));
      if (!link) throw new AppError('link-not-found');
      return (await present(creatorId, username, [link]))[0]!;
    },

    /** The live link `code` of `username`, or `link-not-found`. */
    async live(tx: Tx, username: string | null, code: string): Promise<LinkRow> {
      const [found] = await tx
        .select({ link: trackingLinks, username: users.username })
        .from(trackingLinks)
        .innerJoin(users, eq(users.id, trackingLinks.creatorId))
        .where(and(eq(trackingLinks.code, code), isNull(trackingLinks.endedAt), isNull(users.deletedAt)));
      if (!found || (username !== null && found.username.toLowerCase() !== username.toLowerCase())) throw new AppError('link-not-found');
      return found.link;
    },

    /**
     * Records a visit through a link by the browser `visitor` (the server's cookie), joined at
     * once to the signed-in viewer if any; answers what the link offers.
     */
    async visit(username: string | null, code: string, visitor: string, viewerId: number | null): Promise<LinkLanding> {
      const link = await this.live(db, username, code);
      if (viewerId !== link.creatorId) await db.insert(linkVisits).values({ linkId: link.id, visitor, userId: viewerId, createdAt: now() });
      return landingOf(link);
    },

  };
}

/** Whether a link's trial may still be taken as to time (the count is checked under the link's lock). */
export function trialOpen(link: LinkRow, at: Date): boolean {
  return link.trialDays !== null && link.trialOfferId !== null && (link.trialUntil === null || link.trialUntil.getTime() > at.getTime());
}

export type LinkService = ReturnType<typeof createLinkService>;
