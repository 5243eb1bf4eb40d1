import { useTranslation } from 'react-i18next';
import { Dialog } from '../../lib/ui/dialog/Dialog';
import { VerifyEmailNotice } from '../../lib/ui/VerifyEmailNotice';

/**
 * The verify-email popup of SPEC §2 and §5: an action needed a verified e-mail (posting,
 * commenting, liking, following, gifting, calling, subscribing, uploading). It says so and
 * offers the one resend; closing it leaves the person where they were.
 */
export function VerifyEmailPrompt({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('app.verifyEmail.title')} size="small" onClose={onClose} data-testid="verify-email-prompt">
      <VerifyEmailNotice headingLevel={3} />
    </Dialog>
  );
}
