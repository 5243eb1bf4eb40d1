import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { CreateMediaBody, MediaView, UpdateMediaBody, UploadedBinary } from '../../../../lib/contract/media';
import type { AppContext } from '../../context';
import { media, mediaUploads, users, type MediaRow } from '../../db/schema';
import { AppError } from '../../errors';
import { formShapeError } from '../../http/multipart';
import { createMediaFromFile, detectMediaType, mediaKeys, newMediaHash } from '../../media/pipeline';
import { downloadTo } from '../../media/storage';
import type { Viewer } from '../auth/guard';
import { earnedCentsByMedia, mediaViewColumns, toMediaView, unlockedMediaIds } from '../posts/views';
import { mediaShownTo } from './access';
import { withPricedMedia } from './pricing';
import { mediaPriceProblem, servableStatuses, staleUploadMs } from './domain';

/** Where uploads wait in the media storage until `POST /api/media` turns them into media. */
export function uploadKey(fileName: string): string {
  return `uploads/${fileName}`;
}

const fileNamePattern = /^[a-f0-9]{32}$/;

/**
 * Removes uploads nobody turned into media within a day (their rows and their staged
 * bytes) and media stuck in status 5 as long. Returns the number of uploads removed. Safe to run on every node at once (each row is claimed by its delete).
 */
export async function sweepStaleUploads(ctx: AppContext, now = Date.now()): Promise<number> {
  const stale = await ctx.db
    .delete(mediaUploads)
    .where(lt(mediaUploads.createdAt, new Date(now - staleUploadMs)))
    .returning({ fileName: mediaUploads.fileName });
  for (const { fileName } of stale) await ctx.storage.delete(uploadKey(fileName));
  // Media left "being added" by a node that stopped mid-way will never be finished.
  const stuck = await ctx.db
    .delete(media)
    .where(and(eq(media.status, 5), lt(media.createdAt, new Date(now - staleUploadMs))))
    .returning({ hash: media.hash, format: media.format, mediaType: media.mediaType });
  for (const row of stuck) for (const key of mediaKeys(row.hash, row.format, row.mediaType)) await ctx.storage.delete(key);
  return stale.length;
}

function priceError(problem: 'invalid-price' | 'verify-required'): AppError {
  // SPEC §7: -2 means the account must become a seller (verified) before pricing media.
  return problem === 'verify-required' ? new AppError('verify-required', { statusCode: -2, body: { field: 'price' } }) : new AppError('invalid-price');
}

export function createMediaService(ctx: AppContext) {
  const { db } = ctx;
  // Sweeping rides on uploads (at most hourly per node), so an idle server does no work.
  let lastSweep = 0;

  /** Removes the media a creation made and gives the viewer back the uploads it claimed. */
  async function undoCreate(made: MediaRow[], claimedUploads: (typeof mediaUploads.$inferSelect)[]): Promise<void> {
    for (const row of made) {
      await db.delete(media).where(eq(media.id, row.id));
      for (const key of mediaKeys(row.hash, row.format, row.mediaType)) await ctx.storage.delete(key);
    }
    if (claimedUploads.length > 0) await db.insert(mediaUploads).values(claimedUploads).onConflictDoNothing();
  }

  async function isSeller(userId: number): Promise<boolean> {
    const [row] = await db.select({ isSeller: users.isSeller }).from(users).where(eq(users.id, userId)).limit(1);
    return row?.isSeller ?? false;
  }

  async function checkPrice(userId: number, price: number, purposeOrKind: string): Promise<void> {
    // The seller state is read only for a priced media: free media need no lookup.
    const problem = mediaPriceProblem(price, purposeOrKind, price > 0 ? await isSeller(userId) : false);
    if (problem !== null) throw priceError(problem);
  }

  async function ownRow(userId: number, id: number): Promise<MediaRow> {
    const [row] = await db
      .select()
      .from(media)
      .where(and(eq(media.id, id), eq(media.ownerId, userId)))
      .limit(1);
    if (row === undefined) throw new AppError('not-found');
    return row;
  }

  async function viewOf(row: MediaRow, viewerId: number | null): Promise<MediaView> {
    const unlocked = viewerId !== null && row.price > 0 && (await unlockedMediaIds(ctx, viewerId, [row.id])).has(row.id);
    return toMediaView(row, viewerId, unlocked, ctx.unlockKeys);
  }

  /** Copies every stored file of a media to a new hash; files a media lacks are skipped. */
  async function copyFiles(row: Pick<MediaRow, 'hash' | 'format' | 'mediaType'>, hash: string): Promise<void> {
    const from = mediaKeys(row.hash, row.format, row.mediaType);
    const to = mediaKeys(hash, row.format, row.mediaType);
    for (let i = 0; i < from.length; i++) await ctx.storage.copy(from[i]!, to[i]!);
  }

  return {
    /**
     * Streams an upload to a scratch file (counting bytes against the limits), reads its
     * type from the bytes and stages it in the media storage, so any node can process it.
     */
    async receiveUpload(ownerId: number, file: Readable & { truncated?: boolean }): Promise<UploadedBinary> {
      const now = Date.now();
      if (now - lastSweep > 60 * 60_000) {
        lastSweep = now;
        void sweepStaleUploads(ctx, now).catch(() => {
          lastSweep = 0;
        });
      }
      const workDir = await mkdtemp(path.join(tmpdir(), 'fanstage-upload-'));
      try {
        const local = path.join(workDir, 'upload');
        try {
          await pipeline(file, createWriteStream(local));
        } catch (error) {
          const shape = formShapeError(error);
          if (shape !== null) throw shape;
          if ((error as { statusCode?: number }).statusCode === 413) throw new AppError('payload-too-large');
          throw error;
        }
        if (file.truncated) throw new AppError('payload-too-large');
        const { size } = await stat(local);
        const type = size === 0 ? null : await detectMediaType(local);
        if (type === null) throw new AppError('wrong_media_type');
        // Voice notes are held to the video limit: their length is capped like a video's.
        const limit = type === 'image' ? ctx.config.mediaMaxImageBytes : ctx.config.mediaMaxVideoBytes;
        if (size > limit) throw new AppError('payload-too-large', { body: { limit } });
        const fileName = randomBytes(16).toString('hex');
        await ctx.storage.putFile(uploadKey(fileName), local);
        await db.insert(mediaUploads).values({ fileName, ownerId, size, detectedType: type });
        return { fileName };
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    /**
     * Turns the viewer's uploads into media, one by one, at once: status 3, or 4 with the
     * reason. When every file is refused the call fails with the first reason.
     */
    async create(viewer: Viewer, body: CreateMediaBody): Promise<MediaView[]> {
      const purpose = body.purpose ?? 'post';
      const price = body.price ?? 0;
      await checkPrice(viewer.id, price, purpose);
      const fileNames = [...new Set(body.fileNames)];
      if (!fileNames.every((name) => fileNamePattern.test(name))) throw new AppError('upload-not-found');
      const owned = await db
        .select({ fileName: mediaUploads.fileName })
        .from(mediaUploads)
        .where(and(inArray(mediaUploads.fileName, fileNames), eq(mediaUploads.ownerId, viewer.id)));
      if (owned.length !== fileNames.length) throw new AppError('upload-not-found');

      const views: MediaView[] = [];
      const claimedUploads: (typeof mediaUploads.$inferSelect)[] = [];
      const made: MediaRow[] = [];
      try {
        for (const fileName of fileNames) {
          // Claimed by deleting its row, so two requests never process one upload twice.
          const [claimed] = await db
            .delete(mediaUploads)
            .where(and(eq(mediaUploads.fileName, fileName), eq(mediaUploads.ownerId, viewer.id)))
            .returning();
          if (claimed === undefined) throw new AppError('upload-not-found');
          claimedUploads.push(claimed);
          const workDir = await mkdtemp(path.join(tmpdir(), 'fanstage-create-'));
          try {
            const local = path.join(workDir, 'upload');
            if (!(await downloadTo(ctx.storage, uploadKey(fileName), local))) throw new AppError('upload-not-found');
            const row = await createMediaFromFile(ctx, viewer.id, local, {
              price,
              purpose,
              exemptLowRes: viewer.level >= 100,
              unsupported: body.unsupported ?? false,
            });
            made.push(row);
            views.push(toMediaView(row, viewer.id, false, ctx.unlockKeys));
          } finally {
            await rm(workDir, { recursive: true, force: true });
          }
        }
      } catch (error) {
        // The store or the scratch disk full, or the store away, part-way through: the call is
        // undone whole — the media it made go, the uploads are the viewer's again — so the same
        // call succeeds once the store recovers.
        if (error instanceof AppError && (error.key === 'storage-full' || error.key === 'service-unavailable')) {
          await undoCreate(made, claimedUploads).catch((undoError: unknown) => ctx.log.error({ err: undoError }, 'media: a failed creation could not be undone'));
          throw error;
        }
        for (const upload of claimedUploads) await ctx.storage.delete(uploadKey(upload.fileName));
        throw error;
      }
      for (const upload of claimedUploads) await ctx.storage.delete(uploadKey(upload.fileName));
      const firstAccepted = views.find((view) => view.mediaStatus !== 4);
      if (firstAccepted === undefined) throw new AppError(views[0]!.rejectReason ?? 'format', { body: { media: views } });
      return views;
    },

    async update(viewerId: number, id: number, body: UpdateMediaBody): Promise<MediaView> {
      const row = await ownRow(viewerId, id);
      if (body.price !== undefined && body.price !== row.price) await checkPrice(viewerId, body.price, row.kind);
      if ((body.price === undefined || body.price === row.price) && body.filter === undefined) return viewOf(row, viewerId);
      const updated = await withPricedMedia(ctx, async (tx, price) => {
        // Locked, so a post pricing the same media at once waits and sees the hash this one leaves.
        const [locked] = await tx.select().from(media).where(eq(media.id, row.id)).for('update');
        if (locked === undefined) throw new AppError('not-found');
        if (body.price !== undefined) await price([locked], body.price);
        if (body.filter !== undefined) await tx.update(media).set({ filter: body.filter }).where(eq(media.id, row.id));
        const [fresh] = await tx.select().from(media).where(eq(media.id, row.id));
        return fresh!;
      });
      return viewOf(updated, viewerId);
    },

    /** A new media of the same files (under a hash of its own, so its price and unlocks are its own). */
    async copy(viewerId: number, id: number): Promise<MediaView> {
      const row = await ownRow(viewerId, id);
      if (!servableStatuses.includes(row.status)) throw new AppError('media-not-ready');
      const hash = newMediaHash();
      await copyFiles(row, hash);
      const { id: _id, createdAt: _createdAt, hash: _hash, ...fields } = row;
      const [copy] = await db
        .insert(media)
        .values({ ...fields, hash })
        .returning();
      return viewOf(copy!, viewerId);
    },

    /**
     * A media by id, for its owner in any state and for others who may see it (`mediaShownTo`);
     * to anyone else it does not exist, like an unknown id.
     */
    async view(viewerId: number, id: number): Promise<MediaView> {
      const [row] = await db
        .select({ ...mediaViewColumns, kind: media.kind })
        .from(media)
        .where(and(eq(media.id, id), mediaShownTo(viewerId, ctx.clock.now())))
        .limit(1);
      if (row === undefined) throw new AppError('not-found');
      const isOwner = row.ownerId === viewerId;
      const unlocked = row.price > 0 && (await unlockedMediaIds(ctx, viewerId, [row.id])).has(row.id);
      // What the media has earned is its owner's business alone.
      const earned = isOwner && row.price > 0 ? ((await earnedCentsByMedia(ctx, row.ownerId ?? 0, [row.id])).get(row.id) ?? 0) : 0;
      return toMediaView(row, viewerId, unlocked, ctx.unlockKeys, Date.now(), earned);
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
