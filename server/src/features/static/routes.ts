import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { App, AppContext } from '../../context';
import { addVary } from '../../http/compression';
import { cacheControlFor, contentVersionMatches, fileForPath, isCompressible, isSitePath, sourceFile, wantsSitePage } from './domain';
import { pageHeaders, type PageKind } from './security';

function isFile(root: string, relative: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return false;
  }
  const full = path.resolve(root, decoded);
  if (!full.startsWith(root + path.sep)) return false;
  return statSync(full, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** The popup page in the site's build (host-web/embed-login.html). */
const embedLoginPage = 'embed-login.html';

interface Site {
  name: 'web' | 'demo' | 'embed';
  dir: string;
}

/**
 * Serves the built front ends from one server: the reference site at `/` (with the
 * single-page fallback to index.html), the partner demo at `/demo/` and the script-tag
 * bundle at `/embed/`. The folders are looked up on each request rather than at start, so
 * a build finished while the server runs is served without a restart.
 */
export async function registerStaticRoutes(app: App, ctx: AppContext): Promise<{ notFound: (request: FastifyRequest, reply: FastifyReply) => boolean }> {
  const web: Site = { name: 'web', dir: path.join(ctx.config.webRoot, 'web') };
  const demo: Site = { name: 'demo', dir: path.join(ctx.config.webRoot, 'demo') };
  const embed: Site = { name: 'embed', dir: path.join(ctx.config.webRoot, 'embed') };
  const embedPrefix = embed.dir + path.sep;
  const demoPrefix = demo.dir + path.sep;

  // A page's headers depend on its inline scripts' hashes: read once per version of the file.
  const pageCache = new Map<string, { version: string; headers: Record<string, string> }>();
  const headersOfPage = (filePath: string, stat: Stats | undefined): Record<string, string> => {
    const kind: PageKind = filePath.startsWith(demoPrefix) ? 'demo' : 'site';
    const version = `${stat?.mtimeMs}:${stat?.size}:${ctx.config.publicUrl}`;
    const cached = pageCache.get(filePath);
    if (cached?.version === version) return cached.headers;
    const headers = pageHeaders(kind, readFileSync(filePath, 'utf8'), { publicUrl: ctx.config.publicUrl, production: ctx.config.nodeEnv === 'production' });
    pageCache.set(filePath, { version, headers });
    return headers;
  };

  // The SHA-256 of a file's bytes, read once per version of the file: a `?v=` that names it
  // makes the answer cacheable for good (the widgets' bundle, requested by the loader).
  const hashCache = new Map<string, { version: string; hash: string }>();
  const contentHash = (filePath: string): string | null => {
    const stat = statSync(filePath, { throwIfNoEntry: false });
    if (!stat) return null;
    const version = `${stat.mtimeMs}:${stat.size}`;
    const cached = hashCache.get(filePath);
    if (cached?.version === version) return cached.hash;
    const hash = createHash('sha256').update(readFileSync(filePath)).digest('hex');
    hashCache.set(filePath, { version, hash });
    return hash;
  };
  // `/embed/v/{version}/…`: the files of the release this server has, under its version's
  // address, which partners pin (with the loader's SRI hash, dist/embed/integrity.json).
  const pinnedPrefix = '/embed/v/';
  const releaseOf = (): string | null => {
    const file = path.join(embed.dir, 'integrity.json');
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return null;
    const key = `${stat.mtimeMs}:${stat.size}`;
    if (release?.key !== key) release = { key, version: (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version };
    return release.version;
  };
  let release: { key: string; version: string } | null = null;
  const versionOf = (request: IncomingMessage | undefined): string | undefined => {
    const query = request?.url?.split('?')[1];
    return query === undefined ? undefined : (new URLSearchParams(query).get('v') ?? undefined);
  };

  await app.register(fastifyStatic, {
    serve: false,
    cacheControl: false,
    etag: true,
    lastModified: true,
    // The build writes `.br` and `.gz` next to every compressible file (vite.precompress.ts):
    // the one the request accepts is sent as it is, with its own length and validators, and
    // the file itself when there is none. Nothing is compressed per request.
    preCompressed: true,
    setHeaders(res, filePath, stat) {
      // `filePath` is the copy that is sent (`index.html.br`); the rules go by what it holds.
      const source = sourceFile(filePath);
      const v = source.startsWith(embedPrefix) ? versionOf((res as unknown as { req?: IncomingMessage }).req) : undefined;
      // Only the version of the file this server has: during a rolling release, a node still on
      // the old build must not let the new address be cached for good with the old bytes.
      const hash = v === undefined ? null : contentHash(source);
      // The route below answers a pinned address only with the release it names.
      const pinned = source.startsWith(embedPrefix) && ((res as unknown as { req?: IncomingMessage }).req?.url ?? '').startsWith(pinnedPrefix);
      res.setHeader('Cache-Control', cacheControlFor(source, { versioned: pinned || (hash !== null && contentVersionMatches(v, hash)) }));
      // Every HTML file, however it was reached (/, a client-side route, /embed-login.html).
      if (source.endsWith('.html')) for (const [name, value] of Object.entries(headersOfPage(source, source === filePath ? stat : statSync(source, { throwIfNoEntry: false })))) res.setHeader(name, value);
      if (source.startsWith(embedPrefix)) {
        // Widgets load these files from partners' pages, including their lazy chunks.
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      }
    },
  });

  /**
   * Sends a file of a build. A compressible one goes out as Brotli, gzip or as it is by
   * Accept-Encoding, so caches must key on that header, whichever this answer is (set on the
   * reply, where it joins the Vary the CORS handling writes).
   */
  const sendBuilt = (reply: FastifyReply, file: string, dir: string) => {
    if (isCompressible(file)) addVary(reply, 'Accept-Encoding');
    reply.sendFile(file, dir);
  };

  const built = (site: Site) => existsSync(site.dir);
  const notBuilt = (site: Site, reply: FastifyReply) =>
    reply
      .code(503)
      .header('Cache-Control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(
        `Fanstage: dist/${site.name} has not been built yet (looked in ${site.dir}).\n` +
          'Run `npm run build` (or `npm start`, which builds what is missing), then reload this page.\n',
      );

  // Handlers here are plain functions that return nothing: the file stream answers, and
  // returning the reply (a thenable) would hang one more listener on the response per hop.
  const serve = (site: Site) => (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    if (!built(site)) {
      notBuilt(site, reply);
      return;
    }
    sendBuilt(reply, fileForPath(request.params['*']), site.dir);
  };

  const hidden = { schema: { hide: true } };
  app.get('/demo', hidden, (_request, reply) => reply.redirect('/demo/', 301));
  app.get('/embed', hidden, (_request, reply) => reply.redirect('/embed/', 301));
  // The widgets' sign-in popup is a page of the site's build on the platform's origin, under
  // /embed/ because partners' widgets open it next to the script they load from there.
  // So is the spend confirmation and card window a widget opens (docs/spending.md).
  const popup = (_request: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(path.join(web.dir, embedLoginPage))) {
      notBuilt(web, reply);
      return;
    }
    // Never inside a partner's frame (a framed sign-in form invites clickjacking): like every
    // page, it gets frame-ancestors 'none' where its file is sent (setHeaders above).
    sendBuilt(reply, embedLoginPage, web.dir);
  };
  app.get('/embed/login', hidden, popup);
  app.get('/embed/confirm', hidden, popup);
  app.get('/demo/*', hidden, serve(demo));
  app.get('/embed/v/:version/*', hidden, (request: FastifyRequest<{ Params: { version: string; '*': string } }>, reply: FastifyReply) => {
    // Another release's address is not this one's to answer: its bytes would not match the
    // partner's integrity hash, and a cache would keep them for good.
    if (!built(embed) || releaseOf() !== request.params.version || request.params['*'] === 'integrity.json') {
      reply.callNotFound();
      return;
    }
    sendBuilt(reply, fileForPath(request.params['*']), embed.dir);
  });
  app.get('/embed/*', hidden, serve(embed));
  app.get('/*', hidden, (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    // API and media misses go straight to the not-found answer, without touching the disk.
    if (!isSitePath(request.url) || !built(web)) {
      reply.callNotFound();
      return;
    }
    const file = fileForPath(request.params['*']);
    // A client-side route (/lucy.rivers) is not a file: answer the page at once rather than
    // trying the disk and falling back.
    if (wantsSitePage(request.method, request.url, request.headers.accept) && !isFile(web.dir, file)) {
      sendPage(reply);
      return;
    }
    sendBuilt(reply, file, web.dir);
  });

  const sendPage = (reply: FastifyReply) => {
    // Checking index.html itself (not the folder) keeps a half-built site from looping here.
    if (!existsSync(path.join(web.dir, 'index.html'))) notBuilt(web, reply);
    else sendBuilt(reply, 'index.html', web.dir);
  };

  return {
    /** Page navigations the server does not know belong to the site's router. */
    notFound(request, reply) {
      if (!wantsSitePage(request.method, request.url, request.headers.accept)) return false;
      sendPage(reply);
      return true;
    },
  };
}
