import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'server/src/db/migrations/**', 'test-results/**', 'playwright-report/**', '.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['lib/ui/**/*.{ts,tsx}', 'elements/**/*.{ts,tsx}', 'host-web/**/*.{ts,tsx}', 'host-demo/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The SDK stays headless: nothing in it may import React.
    files: ['lib/sdk/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', 'react/*', '@preact/signals-react', 'lib/ui/*'] }],
    },
  },
  {
    // Contract schemas are TypeBox values: a value import from them drags the schema library
    // into the browser bundles. Browser code imports types from them, and plain values from
    // contract/constants, errors and usernames.
    files: ['lib/sdk/**/*.ts', 'lib/ui/**/*.{ts,tsx}', 'elements/**/*.ts', 'host-web/**/*.{ts,tsx}', 'host-demo/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)contract(/(index|account|auth|check|envelope|gifts|media|notifications|posts|search|settings|translations|users))?$',
              allowTypeImports: true,
              message: 'Import types only; take plain values from contract/constants (TypeBox stays out of browser bundles).',
            },
          ],
        },
      ],
    },
  },
);
