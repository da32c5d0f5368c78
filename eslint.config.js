import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'llm-tooling/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', performance: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'ink', message: 'Import ink lazily (await import) so only commands that draw pay for it.' },
            { name: '@modelcontextprotocol/sdk', message: 'Import the MCP SDK lazily.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@oclif/*'], message: 'src/ is the core library: no oclif imports outside src/cli.' }],
          paths: [
            { name: 'ink', message: 'Import ink lazily (await import) so only commands that draw pay for it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/cli/**/*.tsx'],
    rules: { 'no-restricted-imports': 'off' },
  },
)
