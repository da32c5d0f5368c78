import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/* The fixture repository of the agent hook tests (issue 28): two accepted ADRs with constraints and files to edit. */

export const claudeFixtures = fileURLToPath(new URL('../fixtures/claude-hooks/', import.meta.url))
export const cursorFixtures = fileURLToPath(new URL('../fixtures/cursor-hooks/', import.meta.url))

export const hookKnowledge = {
  'knowledge/adr/adr-0001-logging.md': [
    '---',
    'id: adr-0001-logging',
    'type: adr',
    'title: Log through the logger',
    'status: accepted',
    'severity: block',
    'constraints:',
    '  - id: no-console-log',
    '    operator: must_not_match',
    '    target: code',
    '    pattern: "console\\\\.log\\\\("',
    '    paths: ["src/**"]',
    '    message: Log through the logger in src/log.ts, not console.log.',
    '---',
    '# Log through the logger',
    '',
    '## Decision',
    '',
    'Services MUST log failures through the shared logger in src/log.ts so that payment failures reach the log pipeline.',
    '',
  ].join('\n'),
  'knowledge/adr/adr-0002-dates.md': [
    '---',
    'id: adr-0002-dates',
    'type: adr',
    'title: Dates with date-fns',
    'status: accepted',
    'severity: block',
    'applies_to: ["src/**"]',
    'constraints:',
    '  - id: no-moment',
    '    operator: must_not_use',
    '    target: dependency',
    '    pattern: "^moment$"',
    '    message: Use date-fns; moment is not allowed.',
    '---',
    '# Dates with date-fns',
    '',
    'Code MUST use date-fns for dates.',
    '',
  ].join('\n'),
}

export const hookFiles = {
  'package.json': '{\n  "name": "app",\n  "dependencies": {\n    "date-fns": "^3.6.0"\n  }\n}\n',
  'src/clean.ts': 'export function sum(values: number[]): number {\n  const total = values.reduce((a, b) => a + b, 0)\n  return total\n}\n',
  'src/debug.ts': '// debug helpers\nimport { debug } from "./log"\ndebug("start")\ndebug("end")\n',
  'src/legacy.ts': 'const retries = 3\nconsole.log("legacy", retries)\n',
  'src/explore.ipynb': JSON.stringify(
    { cells: [{ id: 'c1', cell_type: 'code', source: 'data.head()' }], nbformat: 4, nbformat_minor: 5, metadata: {} },
    null,
    1,
  ),
}

/** A recorded hook input, with the recorded project folder /repo replaced by the fixture repository. */
export async function recorded(name: string, root: string, folder = claudeFixtures): Promise<string> {
  return (await readFile(`${folder}${name}.json`, 'utf8')).replaceAll('"/repo', `"${root}`)
}
