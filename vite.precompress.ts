import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the browser downloads; images, fonts and media are compressed in their own formats already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Source maps are fetched only by developer tools, and are the slowest to compress: left as they are. */
const skipped = /\.map$/;
/** Below this a compressed copy saves less than the headers it costs. */
const minimumBytes = 256;

/** The encodings written next to a file, by the extension the server looks for. */
export const precompressedExtensions = ['.br', '.gz'] as const;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : Promise.resolve(entry.isFile() ? [full] : []);
    }),
  );
  return nested.flat();
}

/** Whether `copy` was written from the current `source` (same modification time, set below). */
async function upToDate(source: number, copy: string): Promise<boolean> {
  const info = await stat(copy).catch(() => null);
  // Within a millisecond: file systems round the time set on a copy.
  return info !== null && Math.abs(info.mtimeMs - source) < 1;
}

/**
 * Writes `file.br` (Brotli, best quality) and `file.gz` (gzip -9) next to every compressible
 * file of `dir`, each with its source's modification time so Last-Modified is the same
 * whichever the server sends. A copy that would not be smaller is not kept, and copies left
 * from a file that is gone or changed are replaced or removed: the server sends a copy
 * whenever it exists, so a stale one would outlive the build.
 */
export async function precompressDir(dir: string): Promise<{ files: number; written: number }> {
  const all = await filesUnder(dir);
  const present = new Set(all);
  let written = 0;
  let files = 0;
  await Promise.all(
    all.map(async (file) => {
      const extension = precompressedExtensions.find((ext) => file.endsWith(ext));
      if (extension) {
        // An orphan: its source was deleted or is not one we compress.
        const source = file.slice(0, -extension.length);
        if (!present.has(source) || !compressible.test(source) || skipped.test(source)) await rm(file, { force: true });
        return;
      }
      if (!compressible.test(file) || skipped.test(file)) return;
      const info = await stat(file);
      files += 1;
      const copies: Array<[string, () => Promise<Buffer>]> = [
        [
          `${file}.br`,
          async () =>
            brotli(await readFile(file), {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: info.size,
              },
            }),
        ],
        [`${file}.gz`, async () => gzipAsync(await readFile(file), { level: 9 })],
      ];
      for (const [copy, compress] of copies) {
        if (await upToDate(info.mtimeMs, copy)) continue;
        const bytes = info.size >= minimumBytes ? await compress() : null;
        if (bytes === null || bytes.length >= info.size) {
          await rm(copy, { force: true });
          continue;
        }
        await writeFile(copy, bytes);
        await utimes(copy, info.atimeMs / 1000, info.mtimeMs / 1000);
        written += 1;
      }
    }),
  );
  return { files, written };
}

/**
 * Precompresses a build's output folder once Vite has written it, so the server sends Brotli
 * or gzip without compressing anything per request (server/src/features/static). A plugin
 * rather than a step of its own: however a build is started, its output never goes out with
 * the copies of an older one.
 */
export function precompress(): Plugin {
  let outDir = '';
  let logger: Logger | null = null;
  return {
    name: 'fanstage:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle() {
      const started = Date.now();
      const { files, written } = await precompressDir(outDir);
      logger?.info(`precompressed ${written} copies of ${files} files in ${Date.now() - started} ms`);
    },
  };
}
