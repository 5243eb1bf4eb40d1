import type { FastifyRequest } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { linkVisits } from '../../db/schema';

/** The first-party cookie that knows a browser's visits through links until it signs up or in. */
export const VISITOR_COOKIE = 'fs_visitor';
const visitorPattern = /^[A-Za-z0-9_-]{22}$/;

/** The browser's visitor id from its cookie, if it carries a well-formed one. */
export function visitorOf(request: FastifyRequest): string | null {
  const value = request.cookies?.[VISITOR_COOKIE];
  return typeof value === 'string' && visitorPattern.test(value) ? value : null;
}

/**
 * Gives the browser's visits through links, made signed out, to the account that just signed
 * up (`signedUp`: the links count the sign-up) or in there. Visits through the account's own
 * links stay anonymous.
 */
export async function joinLinkVisits(ctx: AppContext, request: FastifyRequest, userId: number, signedUp: boolean): Promise<void> {
  const visitor = visitorOf(request);
  if (visitor === null) return;
  await ctx.db
    .update(linkVisits)
    .set({ userId, signedUp })
    .where(and(eq(linkVisits.visitor, visitor), isNull(linkVisits.userId), sql`${linkVisits.linkId} not in (select id from tracking_links where creator_id = ${userId}::integer)`));
}

/**
 * Gives the visits a widget recorded for a partner page's signed-out visitor (the id the widget
 * visit answered, which the page hands over with its sign-in code) to the fan who signed in
 * there. A visit counts as a sign-up when the account was made after it (in the sign-in popup).
 * Visits through the fan's own links stay anonymous.
 */
export async function joinWidgetVisits(ctx: AppContext, visitor: string, userId: number): Promise<void> {
  if (!visitorPattern.test(visitor)) return;
  await ctx.db.execute(sql`
    update link_visits v set user_id = ${userId}::integer,
      signed_up = (select u.created_at >= v.created_at from users u where u.id = ${userId}::integer)
    where v.visitor = ${visitor} and v.user_id is null
      and v.link_id not in (select id from tracking_links where creator_id = ${userId}::integer)`);
}
