import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const script = fileURLToPath(new URL('../../bin/build-from-source.mjs', import.meta.url))

// Issue 26.8: `npm link` runs the postinstall script, which rebuilt mk on every link. A clone
// whose build is newer than its sources keeps it; a changed source, or no build, builds.
describe('bin/build-from-source.mjs (postinstall)', () => {
  let clone: string
  const write = (path: string, text: string, secondsAgo: number): void => {
    mkdirSync(dirname(join(clone, path)), { recursive: true })
    writeFileSync(join(clone, path), text)
    const when = Date.now() / 1000 - secondsAgo
    utimesSync(join(clone, path), when, when)
    if (dirname(path) !== '.') utimesSync(join(clone, dirname(path)), when, when)
  }
  const postinstall = () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'npm_execpath'))
    return spawnSync(process.execPath, [join(clone, 'bin', 'build-from-source.mjs')], { cwd: clone, encoding: 'utf8', env })
  }

  beforeEach(() => {
    clone = mkdtempSync(join(tmpdir(), 'mk-postinstall-'))
    mkdirSync(join(clone, 'bin'))
    copyFileSync(script, join(clone, 'bin', 'build-from-source.mjs'))
    // A stand-in build that only records that it ran.
    write('package.json', JSON.stringify({ name: 'mk-knowledge', scripts: { build: "node -e \"require('fs').writeFileSync('built', '')\"" } }), 100)
    write('tsconfig.build.json', '{}', 100)
    write('src/index.ts', 'export {}\n', 100)
  })
  afterEach(() => rmSync(clone, { recursive: true, force: true }))

  const buildOutputs = (secondsAgo: number): void => {
    for (const output of ['dist/bundle/mk.cjs', 'dist/library/index.js', 'oclif.manifest.json']) write(output, '', secondsAgo)
  }

  it('builds a clone that has no build yet', () => {
    const result = postinstall()
    expect(result.status, result.stderr).toBe(0)
    expect(existsSync(join(clone, 'built'))).toBe(true)
  })

  it('keeps a build newer than every source, as npm link finds it', () => {
    buildOutputs(10)
    const result = postinstall()
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toContain('already built')
    expect(existsSync(join(clone, 'built'))).toBe(false)
  })

  it('builds again when a source changed after the build', () => {
    buildOutputs(10)
    write('src/index.ts', 'export const changed = true\n', 0)
    const result = postinstall()
    expect(result.status, result.stderr).toBe(0)
    expect(existsSync(join(clone, 'built'))).toBe(true)
  })

  it('does nothing in an installed package, which has no TypeScript sources', () => {
    rmSync(join(clone, 'tsconfig.build.json'))
    const result = postinstall()
    expect(result.status, result.stderr).toBe(0)
    expect(existsSync(join(clone, 'built'))).toBe(false)
  })
})
