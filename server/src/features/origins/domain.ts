import { randomBytes } from 'node:crypto';
import { proofMetaName } from '../../../../lib/contract/badge';
import { ORIGIN_PROOF_MAX_FAILURES } from '../../../../lib/contract/constants';

/** A proven origin is checked again this often. */
export const PROOF_RECHECK_MS = 24 * 3600_000;
/** Rechecks that may fail in a row before the proof is withdrawn (a site down for a day or two keeps it). */
export const PROOF_MAX_FAILURES = ORIGIN_PROOF_MAX_FAILURES;
/** Proofs a recheck run handles at most. */
export const PROOF_RECHECK_BATCH = 50;

/** A new token: unguessable, and recognisable in a file that holds several. */
export function newProofToken(): string {
  return `fanstage-${randomBytes(24).toString('base64url')}`;
}

/** Whether the well-known file lists `token` on a line of its own (a shared site serves several). */
export function fileHasToken(body: string, token: string): boolean {
  return body.split(/\r?\n/).some((line) => line.trim() === token);
}

/** The value of attribute `name` in one tag's text, quoted or not. */
function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3] ?? '') : null;
}

/** Whether the home page carries `<meta name="fanstage-verification" content="token">` (several may). */
export function pageHasToken(html: string, token: string): boolean {
  const head = html.split(/<\/head\s*>/i)[0] ?? html;
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    if (attribute(tag, 'name')?.trim().toLowerCase() === proofMetaName && attribute(tag, 'content')?.trim() === token) return true;
  }
  return false;
}
