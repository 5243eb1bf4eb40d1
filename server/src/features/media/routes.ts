import { Type } from 'typebox';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { App, AppContext } from '../../context';
import { media } from '../../db/schema';
import { AppError } from '../../errors';
import { contentTypeOf, mediaKey } from '../../media/images';
import { giftFolder } from '../gifts/domain';
import { immutableCache, isGiftFile, mediaVariants, parseMediaFile, servableStatuses } from './domain';

const MediaParams = Type.Object({ file: Type.String({ maxLength: 128 }) });
const MediaQuery = Type.Object({
  t: Type.Optional(Type.Union(mediaVariants.map((size) => Type.Literal(size)), { description: 'Avatar size in pixels.' })),
  k: Type.Optional(Type.String({ maxLength: 128, description: 'Unlock key of paid media.' })),
});

export function registerMediaRoutes(app: App, ctx: AppContext): void {
  const servable = ctx.db
    .select({ format: media.format })
    .from(media)
    .where(and(eq(media.hash, sql.placeholder('hash')), inArray(media.status, [...servableStatuses])))
    .limit(1)
    .prepare('media_servable');

  app.get(
    '/media/:file',
    {
      schema: {
        tags: ['media'],
        summary: 'A media file `<hash>.<format>`, optionally one of its sizes (`t`)',
        params: MediaParams,
        querystring: MediaQuery,
        produces: ['image/webp', 'image/jpeg', 'image/png', 'video/mp4', 'audio/mp4'],
      },
    },
    async (request, reply) => {
      const parsed = parseMediaFile(request.params.file);
      const type = parsed && contentTypeOf(parsed.format);
      if (!parsed || !type) throw new AppError('not-found');
      const [row] = await servable.execute({ hash: parsed.hash });
      if (row === undefined || row.format !== parsed.format) throw new AppError('not-found');
      const file = await ctx.storage.open(mediaKey(parsed.hash, parsed.format, request.query.t));
      if (file === null) throw new AppError('not-found');
      return reply
        .header('Content-Type', type)
        .header('Content-Length', file.size)
        .header('Cache-Control', immutableCache)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .send(file.stream);
    },
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
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .send(file.stream);
    },
  );
}
