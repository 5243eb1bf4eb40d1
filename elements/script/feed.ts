/** The script tag's chunk of `<fanstage-feed>`: see ./define.ts. */
import { feedElement, feedTag } from '../feed';
import { defineOnce } from './define';

export const define = defineOnce(feedTag, feedElement);
