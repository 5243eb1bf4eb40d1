/**
 * What the file pickers offer, apart from the upload flow (upload.ts re-exports them): a page
 * that only shows a picker button does not bring the flow's code with it.
 */

/** What the file picker offers (SPEC §5). */
export const MEDIA_ACCEPT = 'image/*,video/*,.mp4,.m4v,.heic';

/** What the file picker of a chat voice note offers. */
export const VOICE_ACCEPT = 'audio/*,.m4a,.mp3,.ogg,.oga';
