import type { CheckedClientMessage } from '../../../../lib/contract/socket';
import type { AppContext } from '../../context';
import type { SocketFeature } from '../../realtime/transport';
import { createPostService } from './service';

/** `newPost` over the websocket: an author re-announces a published post of theirs to their followers. */
export function postSocketFeature(ctx: AppContext): SocketFeature {
  const posts = createPostService(ctx);
  return {
    name: 'posts',
    types: ['newPost'],
    async handle(peer, _type, fields) {
      // Checked against the contract's schema by the transport before it got here.
      const { postId } = fields as CheckedClientMessage<'newPost'>;
      await posts.announce(peer.userId, postId);
    },
  };
}
