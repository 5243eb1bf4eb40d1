import { sql } from 'drizzle-orm';
import { EarningKinds, type Statistics, type StatisticsQuery, type StatisticsSeries } from '../../../../lib/contract/links';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { moneyUsersById } from '../payments/people';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The most periods one answer holds (a year and a bit of days). */
const MAX_PERIODS = 400;
const TOP_FANS = 10;
const TOP_POSTS = 20;

/** The ledger kinds that are spends of a fan on a creator (a call's minutes are `hold-settle`). */
const spendKinds = ['gift', 'unlock', 'subscription', 'chat-message', 'chat-media', 'hold-settle'];

const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

function invalid(field: string, reason: string): AppError {
  return new AppError('invalid-request', { body: { location: 'querystring', field, reason } });
}

/** The zone if both the runtime and the database know it. */
async function checkedZone(ctx: AppContext, tz: string): Promise<string> {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw invalid('tz', 'unknown time zone');
  }
  const [known] = rows<{ one: number }>(await ctx.db.execute(sql`select 1 as one from pg_timezone_names where name = ${tz} limit 1`));
  if (!known && tz !== 'UTC') throw invalid('tz', 'unknown time zone');
  return tz;
}

interface EarnedRow {
  period: string;
  kind: string;
  origin: string | null;
  link_id: number | null;
  fan_id: number | null;
  cents: string;
}

function series(periods: string[], entries: { period: string; key: string; cents: number }[], label: (key: string) => string): StatisticsSeries[] {
  const index = new Map(periods.map((p, i) => [p, i]));
  const byKey = new Map<string, number[]>();
  for (const entry of entries) {
    const i = index.get(entry.period);
    if (i === undefined) continue;
    const values = byKey.get(entry.key) ?? periods.map(() => 0);
    values[i]! += entry.cents;
    byKey.set(entry.key, values);
  }
  return [...byKey].map(([key, values]) => ({ key, label: label(key), values, total: values.reduce((a, b) => a + b, 0) })).sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
}

/**
 * A creator's statistics over [from, to], in periods of her time zone: her earnings from the
 * ledger's own entries (each credit to her earnings account by a fan's spend, as reconciliation
 * sums them), split by kind, by place (the platform or a partner origin) and by link, with the
 * subscribers gained and lost, her top fans and her posts' unlocks and earnings.
 */
export async function statisticsOf(ctx: AppContext, creatorId: number, query: StatisticsQuery): Promise<Statistics> {
  const unit = query.unit ?? 'day';
  const to = query.to ?? ctx.clock.now().getTime();
  const from = query.from ?? to - 30 * DAY_MS;
  if (from > to) throw invalid('from', 'must not be after to');
  const timeZone = await checkedZone(ctx, query.tz ?? 'UTC');
  const unitDays = unit === 'day' ? 1 : unit === 'week' ? 7 : 28;
  if ((to - from) / (unitDays * DAY_MS) > MAX_PERIODS) throw invalid('from', `at most ${MAX_PERIODS} periods`);
  const fromAt = new Date(from).toISOString();
  const toAt = new Date(to).toISOString();
  const local = (column: ReturnType<typeof sql>) => sql`to_char(date_trunc(${unit}, ${column} at time zone ${timeZone}), 'YYYY-MM-DD')`;

  const periods = rows<{ p: string }>(
    await ctx.db.execute(sql`
      select to_char(p, 'YYYY-MM-DD') as p from generate_series(
        date_trunc(${unit}, ${fromAt}::timestamptz at time zone ${timeZone}),
        date_trunc(${unit}, ${toAt}::timestamptz at time zone ${timeZone}),
        ('1 ' || ${unit})::interval) as p`),
  ).map((r) => r.p);

  const earned = rows<EarnedRow>(
    await ctx.db.execute(sql`
      select ${local(sql`t.created_at`)} as period,
        case when t.counterparty_id is distinct from ${creatorId}::integer then 'affiliate' when t.kind = 'hold-settle' then 'call' else t.kind end as kind,
        s.origin, s.link_id, t.user_id as fan_id, sum(e.amount)::bigint as cents
      from ledger_entries e
      join ledger_accounts a on a.id = e.account_id and a.kind = 'earnings' and a.user_id = ${creatorId}::integer
      join ledger_transfers t on t.id = e.transfer_id
      left join spend_attributions s on s.transfer_id = t.id
      where e.amount > 0 and t.kind in (${sql.join(
        spendKinds.map((k) => sql`${k}`),
        sql`, `,
      )}) and t.created_at >= ${fromAt}::timestamptz and t.created_at <= ${toAt}::timestamptz
      group by 1, 2, 3, 4, 5`),
  ).map((r) => ({ ...r, cents: Number(r.cents), link_id: r.link_id === null ? null : Number(r.link_id), fan_id: r.fan_id === null ? null : Number(r.fan_id) }));

  const links = rows<{ id: number; name: string }>(await ctx.db.execute(sql`select id, name from tracking_links where creator_id = ${creatorId}::integer`));
  const linkNames = new Map(links.map((l) => [`link:${Number(l.id)}`, l.name]));
  const byKind = series(
    periods,
    earned.map((r) => ({ period: r.period, key: r.kind, cents: r.cents })),
    () => '',
  ).sort((a, b) => EarningKinds.indexOf(a.key as never) - EarningKinds.indexOf(b.key as never));
  const byPlace = series(
    periods,
    earned.map((r) => ({ period: r.period, key: r.origin ?? 'platform', cents: r.cents })),
    (key) => (key === 'platform' ? '' : key),
  );
  const byLink = series(
    periods,
    earned.map((r) => ({ period: r.period, key: r.link_id === null ? 'none' : `link:${r.link_id}`, cents: r.cents })),
    (key) => linkNames.get(key) ?? '',
  );
  const totals = periods.map((_, i) => byKind.reduce((sum, s) => sum + s.values[i]!, 0));

  const gained = rows<{ period: string; n: string }>(
    await ctx.db.execute(sql`
      select period, count(*) as n from (
        select ${local(sql`t.created_at`)} as period from ledger_transfers t
        where t.kind = 'subscription' and t.counterparty_id = ${creatorId}::integer and t.idempotency_key like 'subscription:%:1'
          and t.created_at >= ${fromAt}::timestamptz and t.created_at <= ${toAt}::timestamptz
        union all
        select ${local(sql`lt.created_at`)} from link_trials lt
        where lt.creator_id = ${creatorId}::integer and lt.created_at >= ${fromAt}::timestamptz and lt.created_at <= ${toAt}::timestamptz
      ) g group by period`),
  );
  const lost = rows<{ period: string; n: string }>(
    await ctx.db.execute(sql`
      select ${local(sql`updated_at`)} as period, count(*) as n from subscriptions
      where creator_id = ${creatorId}::integer and status = 50 and period_end is not null
        and updated_at >= ${fromAt}::timestamptz and updated_at <= ${toAt}::timestamptz
      group by 1`),
  );
  const perPeriod = (found: { period: string; n: string }[]) => periods.map((p) => Number(found.find((r) => r.period === p)?.n ?? 0));

  const fanTotals = new Map<number, number>();
  for (const r of earned) if (r.fan_id !== null && r.kind !== 'affiliate') fanTotals.set(r.fan_id, (fanTotals.get(r.fan_id) ?? 0) + r.cents);
  const top = [...fanTotals].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, TOP_FANS);
  const people = await moneyUsersById(ctx.db, top.map(([id]) => id));
  const topFans = top.flatMap(([id, cents]) => {
    const user = people.get(id);
    return user ? [{ user, earnedCents: cents }] : [];
  });

  const posts = rows<{ post_id: number; text: string; unlocks: string; cents: string }>(
    await ctx.db.execute(sql`
      select p.id as post_id, left(p.text, 80) as text, count(*) filter (where t.kind = 'unlock') as unlocks, sum(e.amount)::bigint as cents
      from ledger_entries e
      join ledger_accounts a on a.id = e.account_id and a.kind = 'earnings' and a.user_id = ${creatorId}::integer
      join ledger_transfers t on t.id = e.transfer_id and t.kind in ('unlock', 'gift') and t.counterparty_id = ${creatorId}::integer
      join posts p on p.id::text = t.meta->>'postId' and p.user_id = ${creatorId}::integer
      where e.amount > 0 and t.created_at >= ${fromAt}::timestamptz and t.created_at <= ${toAt}::timestamptz
      group by p.id order by cents desc, p.id desc limit ${TOP_POSTS}`),
  );

  return {
    unit,
    timeZone,
    from,
    to,
    periods,
    totals,
    totalCents: totals.reduce((a, b) => a + b, 0),
    byKind,
    byPlace,
    byLink,
    subscribersGained: perPeriod(gained),
    subscribersLost: perPeriod(lost),
    topFans,
    posts: posts.map((p) => ({ postId: Number(p.post_id), text: p.text, unlocks: Number(p.unlocks), earnedCents: Number(p.cents) })),
  };
}
