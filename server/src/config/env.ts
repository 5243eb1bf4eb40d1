/**
 * Reading environment variables: the error a bad value fails the start with, and the readers
 * every area's settings use (a trimmed value, a true/false flag, a bounded whole number, a line
 * of text shown to people).
 */

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A true/false setting: 1, true, on or yes; 0, false, off or no (any case). */
export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}").`);
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number (got "${raw}").`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max} (got ${value}).`);
  return value;
}

/** A line of text shown to people, such as the operator's name: one line, at most `max` characters. */
export function text(env: Env, name: string, fallback: string, max: number): string {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (raw.length > max || /[\r\n<>]/.test(raw)) throw new ConfigError(`${name} must be one line of at most ${max} characters, without < or > (got "${raw}").`);
  return raw;
}
