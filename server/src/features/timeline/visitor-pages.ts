import type { FastifyInstance } from 'fastify';
import type { Post } from '../../../../lib/contract/posts';
import type { AppContext } from '../../context';
import { withBody } from '../../http/envelope';
import { publicFirstPageStaleMs, publicFirstPageTtlMs, viewerPagesMaxEntries, viewerPageTtlMs, visitorPagesMaxEntries } from './domain';
import { RefreshingCache } from './refreshing-cache';

/**
 * Visitors' pages of the public lists (the public timeline at any offset or `ts`, post search)
 * as finished JSON: they hold nothing per viewer, so one answer serves every visitor for a
 * moment, as the first page always did (fresh for 1.5 s, then answered while one request
 * reloads it, up to 5 s more). The pages a viewer sees are read fresh.
 *
 * A signed-in viewer's pages of her own timeline are held too, each for her alone and only
 * while fresh (`viewerPageTtlMs`, never answered stale): the same page asked again within
 * moments (a reload, a second tab) is not read again.
 *
 * What anyone may see changes with writes: a post made, edited or deleted, likes and comments,
 * a price, an unlock, an account deleted or blocked. Any write this node answers successfully
 * starts a new generation, so the next request reads the database, and is announced to the
 * other nodes (over the realtime bus, when there are several), which do the same.
 */
export class VisitorPages {
  private readonly pages = new RefreshingCache<string, string>(publicFirstPageTtlMs, publicFirstPageStaleMs, visitorPagesMaxEntries);
  private readonly viewerPages = new RefreshingCache<string, string>(viewerPageTtlMs, 0, viewerPagesMaxEntries);
  private generation = 0;

  /** The page under `key` (its list and every query value), loaded by `load` when not held. */
  get(key: string, load: () => Promise<Post[]>): Promise<string> {
    return this.pages.get(`${this.generation}|${key}`, async () => JSON.stringify(withBody(await load())));
  }

  /** The viewer's own page under `key`, loaded by `load` when not held. */
  getForViewer(viewerId: number, key: string, load: () => Promise<Post[]>): Promise<string> {
    return this.viewerPages.get(`${this.generation}|${viewerId}|${key}`, async () => JSON.stringify(withBody(await load())));
  }

  /** Forgets every page: the next request of each reads the database. */
  invalidate(): void {
    this.generation += 1;
    this.pages.clear();
    this.viewerPages.clear();
  }
}

const byContext = new WeakMap<AppContext, VisitorPages>();

/**
 * The node's held pages, one set per app; the first call also makes every successful write of
 * this app, and every write another node announces, invalidate them.
 */
export function visitorPagesOf(app: FastifyInstance, ctx: AppContext): VisitorPages {
  let pages = byContext.get(ctx);
  if (pages === undefined) {
    const created = new VisitorPages();
    pages = created;
    byContext.set(ctx, created);
    app.addHook('onResponse', (request, reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && reply.statusCode < 400) {
        created.invalidate();
        ctx.realtime.announceWrite();
      }
      done();
    });
    ctx.realtime.onWriteElsewhere(() => created.invalidate());
  }
  return pages;
}
