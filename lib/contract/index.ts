export * from './envelope';
export * from './errors';
export * from './settings';
export * from './gifts';
export * from './users';
export * from './translations';
export * from './usernames';
export * from './check';
