export { AvatarUpload, AvatarUploadView } from './AvatarUpload';
export type { AvatarUploadProps, AvatarUploadViewProps } from './AvatarUpload';
export { useAvatarUpload, AVATAR_ACCEPT } from './useAvatarUpload';
export type { AvatarUploadState, UseAvatarUploadOptions } from './useAvatarUpload';
