import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { App, AppContext } from '../../context';
import { cacheControlFor, fileForPath, isSitePath, wantsSitePage } from './domain';
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

  await app.register(fastifyStatic, {
    serve: false,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders(res, filePath, stat) {
      res.setHeader('Cache-Control', cacheControlFor(filePath));
      // Every HTML file, however it was reached (/, a client-side route, /embed-login.html).
      if (filePath.endsWith('.html')) for (const [name, value] of Object.entries(headersOfPage(filePath, stat))) res.setHeader(name, value);
      if (filePath.startsWith(embedPrefix)) {
        // Widgets load these files from partners' pages, including their lazy chunks.
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      }
    },
  });

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
    reply.sendFile(fileForPath(request.params['*']), site.dir);
  };

  const hidden = { schema: { hide: true } };
  app.get('/demo', hidden, (_request, reply) => reply.redirect('/demo/', 301));
  app.get('/embed', hidden, (_request, reply) => reply.redirect('/embed/', 301));
  // The widgets' sign-in popup is a page of the site's build on the platform's origin, under
  // /embed/ because partners' widgets open it next to the script they load from there.
  app.get('/embed/login', hidden, (_request, reply) => {
    if (!existsSync(path.join(web.dir, embedLoginPage))) {
      notBuilt(web, reply);
      return;
    }
    // Never inside a partner's frame (a framed sign-in form invites clickjacking): like every
    // page, it gets frame-ancestors 'none' where its file is sent (setHeaders above).
    reply.sendFile(embedLoginPage, web.dir);
  });
  app.get('/demo/*', hidden, serve(demo));
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
    reply.sendFile(file, web.dir);
  });

  const sendPage = (reply: FastifyReply) => {
    // Checking index.html itself (not the folder) keeps a half-built site from looping here.
    if (!existsSync(path.join(web.dir, 'index.html'))) notBuilt(web, reply);
    else reply.sendFile('index.html', web.dir);
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
