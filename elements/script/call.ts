/** The script tag's chunk of `<fanstage-call>`: see ./define.ts. */
import { callElement, callTag } from '../call';
import { defineOnce } from './define';

export const define = defineOnce(callTag, callElement);
