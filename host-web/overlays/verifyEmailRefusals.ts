import { useEffect, useState } from 'react';
import type { Fanstage } from '../../lib/sdk';

/** SPEC §8 / the server's error catalogue: the refusal of an action that needs a verified e-mail. */
export const EMAIL_NOT_VERIFIED = 'email-not-verified';

/**
 * Whether the verify-email popup should show: the API or the realtime connection refused an
 * action with `email-not-verified`, wherever on the page it came from. The account is read
 * again too, in case it was verified meanwhile in another tab (then the popup shows nothing).
 */
export function useVerifyEmailRefusals(fanstage: Fanstage): [open: boolean, close: () => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const refused = () => {
      if (!fanstage.session.isLoggedIn.peek()) return;
      setOpen(true);
      void fanstage.session.loadAccount().catch(() => undefined);
    };
    const offApi = fanstage.client.onRefusal((error) => {
      if (error.code === EMAIL_NOT_VERIFIED) refused();
    });
    const offSocket = fanstage.socket.on('error', (message) => {
      if (message.statusText === EMAIL_NOT_VERIFIED) refused();
    });
    return () => {
      offApi();
      offSocket();
    };
  }, [fanstage]);
  return [open, () => setOpen(false)];
}
