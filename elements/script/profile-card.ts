/** The script tag's chunk of `<fanstage-profile-card>`: see ./define.ts. */
import { profileCardElement, profileCardTag } from '../profile-card';
import { defineOnce } from './define';

export const define = defineOnce(profileCardTag, profileCardElement);
