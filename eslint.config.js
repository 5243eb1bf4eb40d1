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
    // The server depends on the contract alone: the SDK, the components and React are the
    // browser's. Rules both sides need live in lib/contract (rules/*), which lib/sdk/rules re-exports.
    files: ['server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)lib/(sdk|ui)(/|$)|^(react|react-dom)(/|$)|^@preact/signals-react(/|$)',
              message: 'The server imports lib/contract only: move a rule both sides need into lib/contract/rules (lib/sdk/rules re-exports it).',
            },
          ],
        },
      ],
    },
  },
  {
    // Contract schemas are TypeBox values: a value import from them drags the schema library
    // into the browser bundles. Browser code imports types from them, and plain values from
    // contract/constants, errors, usernames, realtime (the websocket's close codes and message
    // types) and rules/* (prices, hashtags, media addresses, page sizes, the calls' rules).
    files: ['lib/sdk/**/*.ts', 'lib/ui/**/*.{ts,tsx}', 'elements/**/*.ts', 'host-web/**/*.{ts,tsx}', 'host-demo/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)contract(/(index|account|auth|calls|check|envelope|gifts|media|notifications|posts|search|settings|socket|translations|users))?$',
              allowTypeImports: true,
              message: 'Import types only; take plain values from contract/constants, contract/realtime and contract/rules/* (TypeBox stays out of browser bundles).',
            },
          ],
        },
      ],
    },
  },
);
