import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseStartError } from './db';
import { describeMediaTool, mediaTools } from './media/tools';
import { productionChecks } from './production-checks';

/** After SIGTERM or SIGINT the process exits within this, with code 1 if it had to cut work short. */
const shutdownBoundMs = 10_000;
/** How long websockets told 1001 have to answer the close frame before their connection is cut. */
const websocketCloseGraceMs = 3_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  // Production serves real people real money: what it needs for that is checked before anything
  // opens (docs/server.md, "Going to production"), every failure at once, one line each.
  const checks = productionChecks(config);
  if (checks.failures.length > 0) {
    for (const failure of checks.failures) process.stderr.write(`Not ready for production: ${failure}\n`);
    process.exit(2);
  }

  const pretty = config.nodeEnv !== 'production' && process.stdout.isTTY;
  const app = await buildApp({
    config,
    logger: pretty
      ? { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : { level: config.logLevel },
  });

  for (const warning of checks.warnings) app.log.warn(warning);

  // Which ffmpeg and ffprobe run the uploads, or what to do when none does (docs/server.md).
  for (const tool of Object.values(mediaTools())) {
    const report = describeMediaTool(tool);
    app.log[report.level]({ tool: tool.name, path: tool.path, source: tool.source }, report.message);
  }

  // A stop (SIGTERM from a supervisor, Ctrl-C) is graceful: docs/server.md, "Running under a
  // process supervisor". The requests being answered and the websockets open are tracked for it.
  const answering = new Set<ServerResponse>();
  app.server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    answering.add(response);
    const done = () => answering.delete(response);
    response.once('finish', done);
    response.once('close', done);
  });
  const websockets = new Set<Duplex>();
  const trackWebsocket = (_request: IncomingMessage, socket: Duplex) => {
    websockets.add(socket);
    socket.once('close', () => websockets.delete(socket));
  };
  app.server.on('upgrade', trackWebsocket);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, requests: answering.size, websockets: websockets.size }, 'shutting down');
    // Upgrades from now on find no listener once the realtime hub stopped taking them, and Node ends them.
    app.server.off('upgrade', trackWebsocket);
    // The answers still being made close their connection once sent. A keep-alive client would
    // otherwise hold it open, idle, for keepAliveTimeout (72 s), and the process with it: Fastify
    // closes the connections idle when the stop begins, not those that become idle later.
    for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false;
    const sweep = setInterval(() => app.server.closeIdleConnections(), 200);
    sweep.unref();
    // Websockets are told 1001 by the realtime hub; a client that never answers the close frame
    // (frozen, or its network gone) would hold ours for ws's 30 s closing timeout. They are cut.
    const cut = setTimeout(() => {
      if (websockets.size > 0) app.log.warn({ websockets: websockets.size }, 'websockets did not finish closing; cutting them');
      for (const socket of websockets) socket.destroy();
    }, websocketCloseGraceMs);
    cut.unref();
    // A request stuck longer than the bound must not keep the process alive forever.
    const timer = setTimeout(() => {
      app.log.error({ requests: answering.size }, `shutdown took longer than ${shutdownBoundMs / 1000} s, exiting`);
      process.exit(1);
    }, shutdownBoundMs);
    timer.unref();
    // Fastify stops taking connections, answers what it took (a request arriving on an open
    // connection meanwhile gets 503 and Connection: close), then runs the closing hooks last
    // registered first: jobs stop, websockets and the Redis bus close, the database closes last.
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { publicUrl: config.publicUrl, database: app.fanstage.database.driver, dataDir: config.dataDir },
    `Fanstage is serving on ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  // A database that cannot be opened is the operator's to fix, and the message says how.
  if (error instanceof DatabaseStartError) {
    process.stderr.write(`Fanstage failed to start: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`Fanstage failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
