import type { AbuseType, ModerationAction } from '../../../../lib/contract/abuse';

/** The administrators' level (SPEC §3): only they read the queue and act on it. */
export const ADMIN_LEVEL = 500;

/** Reports shown per page of the queue. */
export const abuseQueuePageSize = 30;

/** Control characters other than tab and line breaks: nothing a person types into a report. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A report's free text as stored: control characters out, trimmed, null when nothing is left. */
export function normaliseReportText(raw: string | undefined): string | null {
  const text = raw?.replace(controlCharacters, '').trim() ?? '';
  return text === '' ? null : text;
}

/**
 * Which thing an action removes: hiding fits a post, deleting a comment or message fits that
 * thing; banning and dismissing fit any report.
 */
const removes: Partial<Record<ModerationAction, AbuseType>> = {
  'hide-post': 'post',
  'delete-comment': 'comment',
  'delete-message': 'message',
};

/** Whether `action` may be taken on a report of `type` (else moderation-not-applicable). */
export function actionFits(action: ModerationAction, type: AbuseType): boolean {
  const fits = removes[action];
  return fits === undefined || fits === type;
}
