import type { SiteSpending, SpendReceipt, SpendingLimits, SpendingLimitsBody } from '../contract';
import type { FanstageClient } from './client';

/**
 * The fan's own spending controls (docs/spending.md), for the platform's settings: his limits
 * and cool-down, and what each site he allowed may spend and did spend. Widgets cannot call
 * these (`widget-scope`).
 *
 *   spendingControlsApi(client)
 *     .limits()                        GET  /api/spending/limits         → SpendingLimits
 *     .setLimits({daily?, monthly?})   PUT  /api/spending/limits         → SpendingLimits (a raise waits 24 h)
 *     .coolDown(hours)                 POST /api/spending/cooldown       → SpendingLimits
 *     .receipts()                      GET  /api/spending/receipts       → SpendReceipt[] (this month)
 *     .site(origin)                    GET  /api/embed/consents/spends   → SiteSpending
 *     .setAllowance(origin, credits)   PUT  /api/embed/consents          → SiteSpending (0: ask every time)
 */
export function spendingControlsApi(client: FanstageClient) {
  return {
    limits: () => client.get<SpendingLimits>('/api/spending/limits'),
    setLimits: (body: SpendingLimitsBody) => client.request<SpendingLimits>('PUT', '/api/spending/limits', { body }),
    coolDown: (hours: number) => client.post<SpendingLimits>('/api/spending/cooldown', { hours }),
    receipts: () => client.get<SpendReceipt[]>('/api/spending/receipts'),
    site: (origin: string) => client.get<SiteSpending>('/api/embed/consents/spends', { origin }),
    setAllowance: (origin: string, allowance: number) => client.request<SiteSpending>('PUT', '/api/embed/consents', { body: { origin, allowance } }),
  };
}

export type SpendingControlsApi = ReturnType<typeof spendingControlsApi>;
