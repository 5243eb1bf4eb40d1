import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where media bytes live. Keys are relative paths such as `ab12….webp`, `ab12…-120.webp` or
 * `gifts/rose.webp`. Disk storage is the default; an S3-compatible store implements the same
 * three calls.
 */
export interface MediaStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** Stores the file at `file` (a local path) under `key`; large uploads never sit in memory. */
  putFile(key: string, file: string): Promise<void>;
  /**
   * The bytes as a stream with the size of the whole file, or `null` when the key holds
   * nothing. With `range` (inclusive byte offsets, already checked against the size) only
   * those bytes are streamed — video players seek with HTTP Range requests.
   */
  open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number } | null>;
  /** The size of the file under `key`, or `null` when there is none. */
  size(key: string): Promise<number | null>;
  exists(key: string): Promise<boolean>;
  /** Copies `from` to `to` inside the store; false when `from` holds nothing. */
  copy(from: string, to: string): Promise<boolean>;
  /** Removes the key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Inclusive byte offsets, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Downloads a stored file to a local path (tools such as ffprobe read files, not streams). */
export async function downloadTo(storage: MediaStorage, key: string, file: string): Promise<boolean> {
  const opened = await storage.open(key);
  if (opened === null) return false;
  await pipeline(opened.stream, createWriteStream(file));
  return true;
}

/** Keys are built by the server, but they end up in file paths, so they are checked anyway. */
const keyPattern = /^(?:[a-z0-9-]+\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isValidKey(key: string): boolean {
  return keyPattern.test(key) && !key.includes('..');
}

export class DiskStorage implements MediaStorage {
  constructor(readonly root: string) {}

  private file(key: string): string {
    if (!isValidKey(key)) throw new Error(`invalid media key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.write(key, (temporary) => writeFile(temporary, data));
  }

  async putFile(key: string, source: string): Promise<void> {
    await this.write(key, (temporary) => copyFile(source, temporary));
  }

  /**
   * Written aside and renamed, so a reader never sees half a file; a write that fails (the
   * disk full mid-way) leaves nothing behind, not even its partial copy.
   */
  private async write(key: string, into: (temporary: string) => Promise<void>): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await into(temporary);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
  }

  async open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number } | null> {
    const size = await this.size(key);
    if (size === null) return null;
    const file = this.file(key);
    return { stream: createReadStream(file, range ? { start: range.start, end: range.end } : {}), size };
  }

  async size(key: string): Promise<number | null> {
    if (!isValidKey(key)) return null;
    try {
      const info = await stat(this.file(key));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    if (!(await this.exists(from))) return false;
    await this.putFile(to, this.file(from));
    return true;
  }

  async delete(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    await rm(this.file(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    if (!isValidKey(key)) return false;
    try {
      return (await stat(this.file(key))).isFile();
    } catch {
      return false;
    }
  }
}
