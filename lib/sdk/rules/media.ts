/** Moved to the contract (lib/contract/rules/media.ts): the server and the browser share it. */
export * from '../../contract/rules/media';
