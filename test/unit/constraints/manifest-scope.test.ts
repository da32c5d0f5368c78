import { Minimatch } from 'minimatch'
import { describe, expect, it } from 'vitest'
import { readManifest } from '../../../src/constraints/scan/manifest.js'
import { GlobMatcher, inScope } from '../../../src/constraints/scope.js'
import { SourceText } from '../../../src/constraints/scan/source-text.js'

describe('package.json dependencies', () => {
  it('locates each dependency key of the configured fields', () => {
    const text = [
      '{',
      '  "name": "app",',
      '  "scripts": { "mysql2": "not a dependency" },',
      '  "dependencies": {',
      '    "pg": "^8",',
      '    "mysql2": "^3"',
      '  },',
      '  "devDependencies": { "mysql": "2" }',
      '}',
    ].join('\n')
    const found = readManifest(new SourceText('package.json', text), ['dependencies', 'devDependencies'])
    expect(found.map((dependency) => [dependency.name, dependency.field, dependency.line, dependency.column])).toEqual([
      ['pg', 'dependencies', 5, 5],
      ['mysql2', 'dependencies', 6, 5],
      ['mysql', 'devDependencies', 8, 24],
    ])
    expect(readManifest(new SourceText('package.json', text), ['dependencies']).map((dependency) => dependency.name)).toEqual(['pg', 'mysql2'])
  })

  it('treats invalid JSON as an input error naming the file', () => {
    expect(() => readManifest(new SourceText('svc/package.json', '{ "dependencies": '), ['dependencies'])).toThrow(/svc\/package.json: not valid JSON/)
  })
})

describe('path scope', () => {
  it('matches globs like minimatch, including dot files and root files under **/', () => {
    const globs = new GlobMatcher()
    expect(globs.matches('**/id_rsa', 'id_rsa')).toBe(true)
    expect(globs.matches('**/id_rsa', 'keys/id_rsa')).toBe(true)
    expect(globs.matches('**/id_rsa', 'keys/not_id_rsa')).toBe(false)
    expect(globs.matches('**/.env', '.env')).toBe(true)
    expect(globs.matches('src/**', 'src/a/b.ts')).toBe(true)
    expect(globs.matches('src/**', 'lib/src/b.ts')).toBe(false)
    expect(globs.matches('{src,lib}/**/*.ts', 'lib/x/y.ts')).toBe(true)
    expect(globs.matches('README.md', 'README.md')).toBe(true)
    expect(inScope({ paths: ['src/**'], exclude: ['src/generated/**'] }, 'src/generated/a.ts', globs)).toBe(false)
    expect(inScope({ paths: [], exclude: [] }, 'anything', globs)).toBe(true)
  })

  it('answers the common shapes (dir/**, **/*.ext, dir/**/*.ext) exactly as minimatch does', () => {
    const globs = ['src/**', 'src/**/*.ts', '**/*.py', 'services/api/**', 'src/**/*.d-ts']
    const paths = [
      'src',
      'src/a.ts',
      'src/.ts',
      'src/x/.ts',
      'src/.hidden/a.ts',
      'src/a/b/c.ts',
      'srcx/a.ts',
      'lib/src/a.ts',
      'a.py',
      '.py',
      'x/.py',
      'x/y/.hidden.py',
      'x/a.pyc',
      'services/api',
      'services/api/a',
      'services/apix/a',
      'src/q.d-ts',
    ]
    const fast = new GlobMatcher()
    for (const glob of globs) {
      const reference = new Minimatch(glob, { dot: true })
      for (const path of paths) expect(fast.matches(glob, path), `${glob} ${path}`).toBe(reference.match(path))
    }
  })
})
