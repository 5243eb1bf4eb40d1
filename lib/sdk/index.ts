export { createClient, API_VERSION, DEFAULT_TIMEOUT } from './client';
export type { ClientOptions, FanstageClient, LanguageIso, Query, RequestOptions } from './client';
export { SdkError, isSdkError } from './errors';
export { publicApi } from './api';
export type { PublicApi } from './api';
export { createProfileStore } from './stores/profiles';
export type { ProfileEntry, ProfileStore, LoadStatus } from './stores/profiles';
export type * from '../contract';
export { version } from './version';
