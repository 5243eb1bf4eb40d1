/** Moved to the contract (lib/contract/rules/price.ts): the server and the browser share it. */
export * from '../../contract/rules/price';
