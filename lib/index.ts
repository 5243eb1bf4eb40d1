/**
 * `fanstage`: the React components, plus the whole headless SDK, so a partner app needs one
 * import. `fanstage/sdk` is the same SDK without React; styles are in `fanstage/style.css`.
 */
export * from './ui';
export * from './sdk';
// The component wins the name here; the answer of `GET /api/chat/conversations` keeps it in `fanstage/sdk`.
export { ConversationList } from './ui';
export { createI18n, languages, defaultLanguage, isLanguage, pickLanguage, loadLanguage, isLanguageLoaded } from './i18n';
