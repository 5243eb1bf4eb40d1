import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import type { SocketFeature } from '../../realtime/transport';
import { createPostService } from './service';

/** `newPost` over the websocket: an author re-announces a published post of theirs to their followers. */
export function postSocketFeature(ctx: AppContext): SocketFeature {
  const posts = createPostService(ctx);
  return {
    name: 'posts',
    types: ['newPost'],
    async handle(peer, _type, fields) {
      const { postId } = fields;
      if (typeof postId !== 'number' || !Number.isSafeInteger(postId) || postId < 1 || postId > 2_147_483_647) throw new AppError('invalid-request');
      await posts.announce(peer.userId, postId);
    },
  };
}
