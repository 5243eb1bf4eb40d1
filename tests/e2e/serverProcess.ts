import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..', '..');

/**
 * A server of a test's own, in its own process, on the built front ends: what `npm start` runs
 * once the build is there. Unlike the shared server of playwright.config.ts it can be stopped
 * and started again on the same port and data, as an operator restarting a node would.
 */
export class ServerProcess {
  readonly baseUrl: string;
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  /** Wipes the data folder, so the first start seeds the demo content afresh. */
  reset(): void {
    rmSync(path.join(root, this.dataDir), { recursive: true, force: true });
  }

  async start(): Promise<void> {
    if (this.child !== null) throw new Error('already running');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: this.baseUrl,
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
      },
    });
    this.child = child;
    // The first start seeds the demo content, which takes long on a busy machine.
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${this.baseUrl}/papi/settings`)).ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await this.stop();
    throw new Error(`the server did not answer on ${this.baseUrl} within 120 s`);
  }

  /** A graceful stop (SIGTERM): sockets are closed with 1001, the database is closed. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
