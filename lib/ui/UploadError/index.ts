export { UploadError } from './UploadError';
export type { UploadErrorProps } from './UploadError';
