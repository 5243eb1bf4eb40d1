/**
 * Typed calls of proof of site ownership (docs/embedding.md, "Proving a site"), for a creator
 * (a seller) with a full session. Failures reject with an `SdkError`: `origin-not-listed`,
 * `embed-origins-not-allowed`, `invalid-request`, and `origin-proof-failed` with `body.reason`
 * (`address-refused`, `unreachable`, `timeout`, `http-status`, `redirect-refused`, `too-large`,
 * `token-missing`).
 *
 * API (stable):
 *
 *   siteProofApi(client)
 *     .list()          GET  /api/embed-origins        → OriginProof[]
 *     .token(origin)   POST /api/embed-origins/token  → OriginProofToken (serve it, then prove)
 *     .prove(origin)   POST /api/embed-origins/prove  → OriginProof (proven)
 */
import type { OriginProof, OriginProofToken } from '../contract/badge';
import type { FanstageClient } from './client';

export function siteProofApi(client: FanstageClient) {
  return {
    list: (signal?: AbortSignal) => client.get<OriginProof[]>('/api/embed-origins', undefined, { signal }),
    token: (origin: string) => client.post<OriginProofToken>('/api/embed-origins/token', { origin }),
    prove: (origin: string) => client.post<OriginProof>('/api/embed-origins/prove', { origin }),
  };
}

export type SiteProofApi = ReturnType<typeof siteProofApi>;
