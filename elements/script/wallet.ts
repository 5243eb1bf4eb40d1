/** The script tag's chunk of `<fanstage-wallet>`: see ./define.ts. */
import { walletElement, walletTag } from '../wallet';
import { defineOnce } from './define';

export const define = defineOnce(walletTag, walletElement);
