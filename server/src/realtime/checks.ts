import { Compile } from 'typebox/compile';
import { ClientMessageSchemas } from '../../../lib/contract/socket';

/**
 * The contract's schema of every client message type (lib/contract/socket.ts), compiled once
 * when the server loads. The transport checks each message against the one of its type before
 * any feature sees it, so no handler gets a body of a shape the contract does not allow.
 */
const compiled = new Map<string, (value: unknown) => boolean>(
  Object.entries(ClientMessageSchemas).map(([type, schema]) => {
    const validator = Compile(schema);
    return [type, (value: unknown) => validator.Check(value)];
  }),
);

/** Whether the contract has a schema for client messages of `type`. */
export function hasClientSchema(type: string): boolean {
  return compiled.has(type);
}

/** Whether `message` passes the contract's schema of its `type`; false for a type the contract does not know. */
export function passesContract(type: string, message: Record<string, unknown>): boolean {
  return compiled.get(type)?.(message) ?? false;
}
