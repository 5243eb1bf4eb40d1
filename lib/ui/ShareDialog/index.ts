export { ShareDialog } from './ShareDialog';
export type { ShareDialogProps } from './ShareDialog';
export { useShareDialog, COPY_MESSAGE_MS } from './useShareDialog';
export type { ShareTarget, UseShareDialogOptions } from './useShareDialog';
