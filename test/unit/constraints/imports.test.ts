import { describe, expect, it } from 'vitest'
import { findImportSites, packageRoot } from '../../../src/constraints/scan/imports.js'

const specifiers = (path: string, text: string): string[] => findImportSites(path, text).sites.map((site) => site.specifier)

describe('JavaScript and TypeScript imports', () => {
  it('finds every import form', () => {
    const text = [
      "import fs from 'node:fs'",
      'import { a, b as c } from "lodash/fp"',
      "import * as ns from '@scope/pkg/deep'",
      "import type { T } from './types.js'",
      "import 'side-effect'",
      "import def, { x } from 'mixed'",
      "export * from 'reexport'",
      "export * as all from 'reexport-ns'",
      "export { y } from 'named-reexport'",
      "export type { Z } from 'type-reexport'",
      "const lazy = await import('dynamic')",
      "const cjs = require('cjs-module')",
      "import legacy = require('ts-require')",
      'import {',
      '  multi,',
      '  line,',
      "} from 'multiline'",
      "import { from } from 'named-from'",
    ].join('\n')
    expect(specifiers('a.ts', text)).toEqual([
      'node:fs',
      'lodash/fp',
      '@scope/pkg/deep',
      './types.js',
      'side-effect',
      'mixed',
      'reexport',
      'reexport-ns',
      'named-reexport',
      'type-reexport',
      'dynamic',
      'cjs-module',
      'ts-require',
      'multiline',
      'named-from',
    ])
  })

  it('ignores modules that comments, strings, templates and regexes merely mention', () => {
    const text = [
      "// import x from 'in-line-comment'",
      "/* require('in-block-comment') */",
      'const s = "import y from \'in-string\'"',
      "const t = `require('in-template') ${value} import z from 'tail'`",
      "const r = /import a from 'in-regex'/",
      "const d = total / count; const e = other / 2 // import q from 'after-division'",
      'export { local }',
      "import 'after-local-export'",
      "const meta = import.meta.url; obj.require('method-call')",
    ].join('\n')
    expect(specifiers('a.js', text)).toEqual(['after-local-export'])
  })

  it('keeps lexing after JSX text with an apostrophe', () => {
    const text = ["const view = <p>Don't panic</p>", "import later from 'after-jsx'"].join('\n')
    expect(specifiers('a.tsx', text)).toEqual(['after-jsx'])
  })

  it('locates the statement keyword', () => {
    const [site] = findImportSites('a.ts', "\n\n  import x from 'y'").sites
    expect(site?.offset).toBe(4)
  })
})

describe('Python imports', () => {
  it('finds import and from-import statements', () => {
    const text = [
      'import os.path, sys as system',
      'from collections import OrderedDict',
      'from . import sibling',
      'from ..pkg.mod import (',
      '    a,',
      '    b,',
      ')',
      'if TYPE_CHECKING: import typing_extensions',
      'def f():',
      '    import json; import re',
    ].join('\n')
    expect(specifiers('a.py', text)).toEqual(['os.path', 'sys', 'collections', '.', '..pkg.mod', 'typing_extensions', 'json', 're'])
  })

  it('ignores docstrings, comments and non-statement from', () => {
    const text = [
      '"""',
      'import in_docstring',
      '"""',
      '# import in_comment',
      "x = 'import in_string'",
      'def g():',
      '    yield from items',
      '    raise Error() from cause',
    ].join('\n')
    expect(specifiers('a.py', text)).toEqual([])
  })
})

describe('packageRoot', () => {
  it('reduces specifiers to their package', () => {
    expect(packageRoot('lodash/fp', false)).toBe('lodash')
    expect(packageRoot('@scope/pkg/x', false)).toBe('@scope/pkg')
    expect(packageRoot('./local.js', false)).toBe('./local.js')
    expect(packageRoot('os.path', true)).toBe('os')
    expect(packageRoot('.models', true)).toBe('.models')
  })
})
