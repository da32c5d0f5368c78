import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../../src/package-root.js'
import { textForTenant } from '../../../src/fs/tenant-text.js'

const places = { root: '/data/tenants/a/workspace', mkHome: '/data/tenants/a/home' }

describe('text a tenant is sent', () => {
  it('names paths in its workspace relative to it, and those in its MK_HOME from $MK_HOME', () => {
    expect(textForTenant('cannot read the team memory set /data/tenants/a/workspace/sets/x.json: no such file', places)).toBe(
      'cannot read the team memory set sets/x.json: no such file',
    )
    expect(textForTenant('path "../b" is outside the workspace /data/tenants/a/workspace', places)).toBe('path "../b" is outside the workspace <workspace>')
    expect(textForTenant('/data/tenants/a/workspace/', places)).toBe('<workspace>')
    expect(textForTenant('in /data/tenants/a/home/models/acme/x', places)).toBe('in $MK_HOME/models/acme/x')
  })

  it('hides every other absolute path: another tenant, the system, mk itself, the temp folder', () => {
    expect(textForTenant('/data/tenants/a/workspace2/x and /data/tenants/b/workspace/y', places)).toBe('<server path> and <server path>')
    expect(textForTenant('cannot read /etc/passwd: EACCES, "/var/lib/x" (/opt/y) x=/srv/z', places)).toBe(
      'cannot read <server path>: EACCES, "<server path>" (<server path>) x=<server path>',
    )
    expect(textForTenant(`${join(packageRoot(), 'bench', 'recall', 'team-dev.json')}: bad`, places)).toBe('<mk>/bench/recall/team-dev.json: bad')
    expect(textForTenant(`${join(tmpdir(), 'mk-eval-1')} is full`, undefined)).toBe('<temp>/mk-eval-1 is full')
  })

  it('leaves URLs, relative paths, globs and fractions alone', () => {
    const text = 'cannot reach https://huggingface.co/acme/x/resolve/main/config.json; glob "src/**/x.ts", a/b, 1/2, and/or'
    expect(textForTenant(text, places)).toBe(text)
  })
})
