/** The files `mk init` writes: a config and a knowledge folder with one ADR and one policy to learn from. */
export const starterConfig = `# mk configuration: every key and its default is documented in .mkrc.example
# in the mk repository. This file marks the workspace root.
knowledge:
  sources:
    - name: project
      layer: project
      path: knowledge
`

export const starterAdr = `---
id: adr-0001-use-postgresql
type: adr
title: Use PostgreSQL for relational data
status: accepted
date: 2026-01-01
tags: [database]
summary: New services that need relational data use PostgreSQL, not MySQL.
constraints:
  - id: no-mysql
    operator: must_not_use
    target: dependency
    pattern: "^(mysql|mysql2|mariadb)$"
    severity: block
    message: MySQL drivers are not allowed; use PostgreSQL (pg) instead.
---
# Use PostgreSQL for relational data

## Context

Running one relational database well is cheaper than running two.

## Decision

New services that need relational data use PostgreSQL.

## Consequences

\`mk knowledge check\` fails when a package.json depends on a MySQL driver.
`

export const starterPolicy = `---
id: policy-no-eval
type: policy
title: No eval in source code
status: accepted
tags: [security]
summary: Code must not call eval; it runs arbitrary strings as code.
constraints:
  - id: no-eval
    operator: must_not_match
    target: code
    pattern: "\\\\beval\\\\("
    paths: ["**/*.{js,jsx,ts,tsx,mjs,cjs}"]
    severity: block
    message: eval runs arbitrary strings as code; parse the data instead.
---
# No eval in source code

## Policy

Source code never calls \`eval\`.

## Rationale

\`eval\` turns any string into code, which makes injection bugs easy and review hard.

## Exceptions

Waive one line with a comment on it (or the line above) holding \`mk-ignore\`,
the constraint id (\`no-eval\`), \`--\` and the reason.
`
