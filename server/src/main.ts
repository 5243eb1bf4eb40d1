import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseStartError } from './db';
import { describeMediaTool, mediaTools } from './media/tools';

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

  const pretty = config.nodeEnv !== 'production' && process.stdout.isTTY;
  const app = await buildApp({
    config,
    logger: pretty
      ? { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : { level: config.logLevel },
  });

  // Which ffmpeg and ffprobe run the uploads, or what to do when none does (docs/server.md).
  for (const tool of Object.values(mediaTools())) {
    const report = describeMediaTool(tool);
    app.log[report.level]({ tool: tool.name, path: tool.path, source: tool.source }, report.message);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A stuck connection must not keep the process alive forever.
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
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
