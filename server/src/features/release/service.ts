import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { RELEASE_FILE } from '../../../../lib/contract/release';
import type { AppContext } from '../../context';
import { parseRelease } from './domain';

/**
 * The release of the built site under the web root. The file is read again only when it
 * changed on disk, so a deploy that replaces the files is answered without a restart, and
 * thousands of pages asking every half hour cost a `stat` each.
 */
export function createReleaseService(ctx: Pick<AppContext, 'config'>) {
  const file = path.join(ctx.config.webRoot, 'web', RELEASE_FILE);
  let cached: { stamp: string; release: string | null } | null = null;

  return {
    async current(): Promise<string | null> {
      let stamp: string;
      try {
        const info = await stat(file);
        stamp = `${info.mtimeMs}:${info.size}`;
      } catch {
        // No built site (development, tests): nothing to compare with.
        cached = null;
        return null;
      }
      if (cached?.stamp === stamp) return cached.release;
      const text = await readFile(file, 'utf8').catch(() => null);
      cached = { stamp, release: parseRelease(text) };
      return cached.release;
    },
  };
}
