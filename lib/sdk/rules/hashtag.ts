/** Moved to the contract (lib/contract/rules/hashtag.ts): the server and the browser share it. */
export * from '../../contract/rules/hashtag';
