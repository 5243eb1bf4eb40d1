// Czech, a chunk of its own: lib/i18n loads it when a page first speaks Czech.
import translation from './locales/cs.json';
import enums from './locales/enums.cs.json';

export default { translation, enums };
