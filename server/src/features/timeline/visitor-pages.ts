import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Post } from '../../../../lib/contract/posts';
import type { AppContext } from '../../context';
import { withBody } from '../../http/envelope';
import { publicFirstPageStaleMs, publicFirstPageTtlMs, viewerPagesMaxEntries, viewerPageTtlMs, visitorPagesMaxEntries } from './domain';
import { encode, encodingFor, type Encoding } from '../../http/compression';
import { RefreshingCache } from '../../http/refreshing-cache';
import { trackWrites, type Writes } from '../../http/writes';

/**
 * One held page: the envelope's JSON, and each compressed form of it once someone asked for it
 * (compressed once for everyone it is sent to, not once per request).
 */
export class HeldPage {
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();
  /** Measured once, not per request. */
  private readonly size: number;

  constructor(readonly json: string) {
    this.size = Buffer.byteLength(json);
  }

  /** Sends the page as JSON, compressed as the request accepts (http/compression.ts's rules). */
  async send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    reply.type('application/json; charset=utf-8');
    const encoding = encodingFor(request, reply, this.size);
    if (encoding === null) return reply.send(this.json);
    let encoded = this.encoded.get(encoding);
    if (encoded === undefined) {
      encoded = encode(Buffer.from(this.json), encoding);
      this.encoded.set(encoding, encoded);
      // A failure is this request's; the next one tries again.
      encoded.catch(() => this.encoded.delete(encoding));
    }
    return reply.header('content-encoding', encoding).send(await encoded);
  }
}

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
 * a price, an unlock, an account deleted or blocked. Every page is held under the generation of
 * writes it was read in (http/writes.ts), so any write, on this node or another, makes the next
 * request read the database.
 */
export class VisitorPages {
  private readonly pages = new RefreshingCache<string, HeldPage>(publicFirstPageTtlMs, publicFirstPageStaleMs, visitorPagesMaxEntries);
  private readonly viewerPages = new RefreshingCache<string, HeldPage>(viewerPageTtlMs, 0, viewerPagesMaxEntries);

  constructor(private readonly writes: Writes) {
    writes.onWrite(() => {
      this.pages.clear();
      this.viewerPages.clear();
    });
  }

  /** The page under `key` (its list and every query value), loaded by `load` when not held. */
  get(key: string, load: () => Promise<Post[]>): Promise<HeldPage> {
    return this.pages.get(`${this.writes.generation}|${key}`, async () => new HeldPage(JSON.stringify(withBody(await load()))));
  }

  /** The viewer's own page under `key`, loaded by `load` when not held. */
  getForViewer(viewerId: number, key: string, load: () => Promise<Post[]>): Promise<HeldPage> {
    return this.viewerPages.get(`${this.writes.generation}|${viewerId}|${key}`, async () => new HeldPage(JSON.stringify(withBody(await load()))));
  }
}

const byContext = new WeakMap<AppContext, VisitorPages>();

/** The node's held pages, one set per app, dropped by every write (see http/writes.ts). */
export function visitorPagesOf(app: FastifyInstance, ctx: AppContext): VisitorPages {
  let pages = byContext.get(ctx);
  if (pages === undefined) {
    pages = new VisitorPages(trackWrites(app, ctx));
    byContext.set(ctx, pages);
  }
  return pages;
}
