import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { supportedLanguages, type ApiLanguage } from '../../http/language';

export type Namespace = 'client' | 'enums';

/** One prepared answer: the envelope already serialised, and its version for caching. */
export interface TranslationAnswer {
  version: string;
  etag: string;
  json: string;
}

/** `client` is the i18next `translation` namespace (`{lang}.json`), `enums` is `enums.{lang}.json`. */
function fileOf(localesDir: string, namespace: Namespace, language: ApiLanguage): string {
  return path.join(localesDir, namespace === 'client' ? `${language}.json` : `enums.${language}.json`);
}

/**
 * Reads the same resource files the client bundles and prepares every answer once. The
 * version is a hash of the content, so a client holding version v can cache forever.
 */
export function loadTranslations(localesDir: string): Map<string, TranslationAnswer> {
  const answers = new Map<string, TranslationAnswer>();
  for (const namespace of ['client', 'enums'] as const) {
    for (const language of supportedLanguages) {
      const text = readFileSync(fileOf(localesDir, namespace, language), 'utf8');
      const resources = JSON.parse(text) as Record<string, unknown>;
      const version = createHash('sha256').update(JSON.stringify(resources)).digest('hex').slice(0, 16);
      answers.set(`${namespace}:${language}`, {
        version,
        etag: `"${namespace}-${language}-${version}"`,
        json: JSON.stringify({ statusCode: 2, body: { language, version, resources } }),
      });
    }
  }
  return answers;
}
