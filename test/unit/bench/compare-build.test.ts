import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { staleBuildReason } from '../../../scripts/bench/compare-build.js'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A checkout with its own node_modules and a kept scratch build of an older ref beside it. */
function checkoutAndBuild(modules: 'symlink' | 'installed'): { repository: string; build: string } {
  const root = mkdtempSync(join(tmpdir(), 'mk-compare-build-'))
  made.push(root)
  const repository = join(root, 'repository')
  const build = join(root, 'build')
  mkdirSync(join(repository, 'node_modules'), { recursive: true })
  mkdirSync(build)
  writeFileSync(join(repository, 'package-lock.json'), '{"lockfileVersion":3,"packages":{"a":"1"}}')
  writeFileSync(join(build, 'package-lock.json'), '{"lockfileVersion":3,"packages":{"a":"1"}}')
  if (modules === 'symlink') symlinkSync(join(repository, 'node_modules'), join(build, 'node_modules'), 'dir')
  else mkdirSync(join(build, 'node_modules'))
  return { repository, build }
}

describe('a kept comparison build', () => {
  it('is reused while its symlinked node_modules matches its lockfile', () => {
    const { repository, build } = checkoutAndBuild('symlink')
    expect(staleBuildReason(build, repository)).toBeUndefined()
  })

  it('is stale once the checkout it borrows node_modules from changes its lockfile', () => {
    const { repository, build } = checkoutAndBuild('symlink')
    writeFileSync(join(repository, 'package-lock.json'), '{"lockfileVersion":3,"packages":{"a":"2"}}')
    expect(staleBuildReason(build, repository)).toMatch(/package-lock\.json has changed/)
  })

  it('is stale once the node_modules it links to is gone (a removed worktree)', () => {
    const { repository, build } = checkoutAndBuild('symlink')
    rmSync(join(repository, 'node_modules'), { recursive: true })
    expect(staleBuildReason(build, repository)).toMatch(/no longer exists/)
  })

  it('keeps its own installed node_modules whatever the checkout installs', () => {
    const { repository, build } = checkoutAndBuild('installed')
    writeFileSync(join(repository, 'package-lock.json'), '{"lockfileVersion":3,"packages":{"a":"2"}}')
    expect(staleBuildReason(build, repository)).toBeUndefined()
  })
})
