/** An accepted ADR with one blocking constraint: no `console.log` in the files `paths` names (all files when none). */
export function noConsoleAdr(paths?: readonly string[]): string {
  const scope = paths === undefined ? '' : `    paths: ${JSON.stringify(paths)}\n`
  return `---
id: adr-0001-no-console
type: adr
title: No console output
status: accepted
date: 2026-01-01
constraints:
  - id: no-console
    operator: must_not_match
    target: code
    pattern: 'console\\.log'
${scope}    severity: block
---
# No console output
`
}
