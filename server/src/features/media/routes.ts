import { Type } from 'typebox';
import { and, eq, inArray, sql } from 'drizzle-orm';
import multipart from '@fastify/multipart';
import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { CreateMediaBody, MediaIdParams, MediaVariants, MediaView, UpdateMediaBody, UploadedBinary } from '../../../../lib/contract/media';
import type { App } from '../../context';
import { media } from '../../db/schema';
import { AppError } from '../../errors';
import { withBody } from '../../http/envelope';
import { withUploadedFile } from '../../http/multipart';
import { contentTypeOf } from '../../media/images';
import { servedKey } from '../../media/pipeline';
import { requireVerifiedEmail, viewerOf } from '../auth/guard';
import { giftFolder } from '../gifts/domain';
import { immutableCache, isGiftFile, keyedCache, needsUnlockKey, parseMediaFile, parseRange, servableStatuses } from './domain';
import { createMediaService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

const MediaParams = Type.Object({ file: Type.String({ maxLength: 128 }) });
const MediaQuery = Type.Object({
  t: Type.Optional(Type.Union(MediaVariants.map((variant) => Type.Literal(variant)), { description: 'Variant: avatar size, width, blur, og or poster.' })),
  k: Type.Optional(Type.String({ maxLength: 128, description: 'Unlock key of paid media.' })),
});

export async function mediaFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = createMediaService(ctx);
  const servable = ctx.db
    .select({ format: media.format, price: media.price, mediaType: media.mediaType })
    .from(media)
    .where(and(eq(media.hash, sql.placeholder('hash')), inArray(media.status, [...servableStatuses])))
    .limit(1)
    .prepare('media_servable');

  app.get(
    '/media/:file',
    {
      schema: {
        tags: ['media'],
        summary: 'A media file `<hash>.<format>`, optionally a variant (`t`); priced media need the unlock key `k` for all but blur and og',
        params: MediaParams,
        querystring: MediaQuery,
        produces: ['image/webp', 'image/jpeg', 'image/png', 'video/mp4', 'video/webm', 'audio/mp4'],
      },
    },
    async (request, reply) => {
      const parsed = parseMediaFile(request.params.file);
      if (!parsed || !contentTypeOf(parsed.format)) throw new AppError('not-found');
      const [row] = await servable.execute({ hash: parsed.hash });
      if (row === undefined || row.format !== parsed.format) throw new AppError('not-found');
      const variant = request.query.t;
      const keyed = needsUnlockKey(row.price, variant);
      if (keyed) {
        const key = request.query.k;
        if (key === undefined || !ctx.unlockKeys.verify(parsed.hash, key)) throw new AppError('media-locked');
      }
      const key = servedKey(parsed.hash, parsed.format, row.mediaType, variant, row.price > 0);
      if (key === null) throw new AppError('not-found');
      const type = contentTypeOf(key.slice(key.lastIndexOf('.') + 1));
      const size = await ctx.storage.size(key);
      if (size === null || type === undefined) throw new AppError('not-found');
      reply
        .header('Content-Type', type)
        .header('Accept-Ranges', 'bytes')
        // Opened with a key: the viewer's own answer, never kept by a shared cache.
        .header('Cache-Control', keyed ? keyedCache : immutableCache)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      // A public variant is public to every page (a widget may draw it on a canvas); a keyed
      // original stays without CORS, for the page that holds the key to show, not to read.
      if (!keyed) reply.header('Access-Control-Allow-Origin', '*');
      const range = parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') return reply.code(416).header('Content-Range', `bytes */${size}`).send();
      const file = await ctx.storage.open(key, range ?? undefined);
      if (file === null) throw new AppError('not-found');
      if (range !== null) {
        reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      }
      return reply.header('Content-Length', range === null ? size : range.end - range.start + 1).send(file.stream);
    },
  );

  // Multipart is parsed only here, so no other route accepts uploads by accident.
  void app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: Math.max(ctx.config.mediaMaxImageBytes, ctx.config.mediaMaxVideoBytes), files: 1, fields: 0, parts: 1 },
    });
    const { api: scope } = await viewerScope(uploads);
    scope.post(
      '/api/media/binary',
      {
        schema: {
          tags: ['media'],
          summary: 'Upload a picture, video or voice note (multipart field `file`); the type is read from the bytes. Then `POST /api/media` with the fileName',
          consumes: ['multipart/form-data'],
          response: { 200: BodyEnvelope(UploadedBinary) },
        },
      },
      async (request) => {
        const viewer = requireVerifiedEmail(request);
        return withBody(await withUploadedFile(request, (file) => service.receiveUpload(viewer.id, file.file)));
      },
    );
  });

  api.post(
    '/api/media',
    {
      schema: {
        tags: ['media'],
        summary: 'Turn uploads into media (status 3, or 4 with rejectReason; voice notes only with purpose chat); -1 with the first reason when all are refused; -2 verify-required for a price of a non-seller',
        body: CreateMediaBody,
        response: { 200: BodyEnvelope(Type.Array(MediaView)) },
      },
    },
    async (request) => withBody(await service.create(requireVerifiedEmail(request), request.body)),
  );

  api.put(
    '/api/media/:id',
    {
      schema: {
        tags: ['media'],
        summary: 'The owner changes a media’s price (a step of its list) or filter',
        params: MediaIdParams,
        body: UpdateMediaBody,
        response: { 200: BodyEnvelope(MediaView) },
      },
    },
    async (request) => withBody(await service.update(viewerOf(request).id, request.params.id, request.body)),
  );

  api.post(
    '/api/media/:id/copy/',
    {
      schema: {
        tags: ['media'],
        summary: 'A copy of the owner’s ready media: a new media (own id, hash and price) with the same pictures',
        params: MediaIdParams,
        response: { 200: BodyEnvelope(MediaView) },
      },
    },
    async (request) => withBody(await service.copy(viewerOf(request).id, request.params.id)),
  );

  api.get(
    '/api/media/:id',
    {
      schema: {
        tags: ['media'],
        summary: 'A media as the viewer sees it (the owner in any state, others when ready)',
        params: MediaIdParams,
        response: { 200: BodyEnvelope(MediaView) },
      },
    },
    async (request) => withBody(await service.view(viewerOf(request).id, request.params.id)),
  );

  app.get(
    '/media/gifts/:file',
    {
      schema: {
        tags: ['media'],
        summary: 'A gift picture, named by the gift’s imageName',
        params: MediaParams,
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const name = request.params.file;
      const type = isGiftFile(name) ? contentTypeOf(name.slice(name.lastIndexOf('.') + 1)) : undefined;
      const file = type ? await ctx.storage.open(`${giftFolder}/${name}`) : null;
      if (!type || file === null) throw new AppError('not-found');
      return reply
        .header('Content-Type', type)
        .header('Content-Length', file.size)
        // Gift pictures keep their names when redrawn, so they are cached for a day, not forever.
        .header('Cache-Control', 'public, max-age=86400')
        .header('Access-Control-Allow-Origin', '*')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .send(file.stream);
    },
  );
}
