/**
 * The auth feature's services, gathered for the routes and the other features that import
 * them: accounts (./accounts.ts), mailed actions (./actions.ts), sign-in and sessions
 * (./sessions.ts), embed sign-in and consents (./consents.ts); the password rules they share
 * are in ./passwords.ts.
 */
export { hashPassword } from './hashing';
export { banUser, changeEmail, changePassword, confirmPassword, createAccount, signup, type NewAccount } from './accounts';
export { confirmAction, requestPasswordReset, resendVerification, resetPassword, sendVerificationMail } from './actions';
export { deviceKeyOf, login, logout, pruneExpired, refreshSession, revokeSessions, startSession, type Session } from './sessions';
export {
  embedConsentState,
  exchangeEmbedCode,
  issueEmbedCode,
  listEmbedConsents,
  listedEmbedOrigins,
  removeEmbedOrigin,
  revokeEmbedConsent,
} from './consents';
