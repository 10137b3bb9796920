// Flat ESLint config for the whole workspace: typescript-eslint's type-checked rules on sources
// and tests, resolved through each package's tsconfig.json by the project service.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', 'apps/cli/assets/**', '**/node_modules/**', '**/coverage/**', '**/.turbo/**', '**/generated/**', '.release-dry-run/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Library code is the functional core: the CLI is the only place that prints or exits.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'Return a result; the CLI decides the exit code.' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', Buffer: 'readonly' },
    },
  },
  {
    // The CLI's bin is CommonJS (apps/cli/bin/package.json): no ES module loader at each call's start.
    files: ['apps/cli/bin/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', module: 'writable', __dirname: 'readonly', __filename: 'readonly' },
    },
  },
);
