import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where media bytes live. Keys are relative paths such as `ab12….webp`, `ab12…-120.webp` or
 * `gifts/rose.webp`. Disk storage is the default; an S3-compatible store implements the same
 * three calls.
 */
export interface MediaStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** The bytes as a stream with their size, or `null` when the key holds nothing. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  exists(key: string): Promise<boolean>;
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
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed so a reader never sees half a file.
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, data);
    await rename(temporary, file);
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    if (!isValidKey(key)) return null;
    const file = this.file(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { stream: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
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
