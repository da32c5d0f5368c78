import { readFileSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

/** Packages scripts/bundle.ts puts in the bundle: import() of them is resolved at build time. */
const bundled = JSON.parse(readFileSync(new URL('./scripts/bundled-packages.json', import.meta.url), 'utf8'))
const escaped = bundled.map((name) => name.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&'))
const notBundled = `^(?!\\.|(?:${escaped.join('|')})(?:\\/|$))`
const packageImport = {
  selector: `ImportExpression[source.type='Literal'][source.value=/${notBundled}/]`,
  message:
    'import() of a package fails in the code-cached bundle: use importPackage() from src/import-package.ts (bundled packages can be imported statically).',
}

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
            { name: 'ink', message: 'Import ink lazily (importPackage) so only commands that draw pay for it.' },
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
          patterns: [{ group: ['@oclif/*'], message: 'src/ is the core library: no oclif imports outside src/hosts/cli.' }],
          paths: [{ name: 'ink', message: 'Import ink lazily (importPackage) so only commands that draw pay for it.' }],
        },
      ],
    },
  },
  {
    // What goes into the bundle.
    files: ['src/**/*.ts', 'src/**/*.tsx', 'commands/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', packageImport],
    },
  },
  {
    // Issue 11.11: what a command prints goes through src/hosts/cli/render.ts, which strips terminal control sequences from data.
    files: ['commands/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        packageImport,
        {
          selector: "MemberExpression[object.object.name='process'][object.property.name=/^(stdout|stderr)$/][property.name='write']",
          message:
            'Print with writeText or writeJson (src/hosts/cli/render.ts), or return a display from the tool: they keep control sequences in data off the terminal.',
        },
        { selector: "MemberExpression[object.name='console']", message: 'Print with writeText or writeJson (src/hosts/cli/render.ts).' },
      ],
    },
  },
  {
    files: ['src/hosts/cli/**/*.ts', 'src/hosts/cli/**/*.tsx'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The launcher is CommonJS (bin/package.json): an ES module entry costs every command Node's ES module loader.
    files: ['bin/run.js', 'test/helpers/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
