import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serveSite, siteFile } from '../../../src/site/static-server.js'
import { workspacesRemovedAfterEach } from '../../helpers/workspace.js'

const workspace = workspacesRemovedAfterEach()

describe('the site preview server', () => {
  it('serves files of the site folder and nothing outside it', async () => {
    const { root } = await workspace({ 'site/index.html': '<h1>log</h1>', 'site/items/a.html': 'a', 'secret.txt': 'key' })
    const folder = join(root, 'site')
    await symlink(join(root, 'secret.txt'), join(folder, 'leak.txt'))
    expect(await siteFile(folder, '/')).toBe(join(folder, 'index.html'))
    expect(await siteFile(folder, '/items/a.html?x=1')).toBe(join(folder, 'items', 'a.html'))
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/items/..%2f..%2fsecret.txt', '/leak.txt', '/%00', '/%E0%A4%A', '/items']) {
      expect(await siteFile(folder, path), path).toBeUndefined()
    }
  })

  it('listens on 127.0.0.1 and answers 404 for a path that leaves the folder', async () => {
    const { root } = await workspace({ 'site/index.html': '<h1>log</h1>', 'secret.txt': 'key' })
    await mkdir(join(root, 'site', 'assets'))
    await writeFile(join(root, 'site', 'assets', 'site.css'), 'body{}')
    const site = await serveSite(join(root, 'site'))
    try {
      expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      const css = await fetch(`${site.url}assets/site.css`)
      expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])
      expect((await fetch(`${site.url}%2e%2e/secret.txt`)).status).toBe(404)
      expect((await fetch(site.url, { method: 'POST' })).status).toBe(405)
    } finally {
      await site.close()
    }
  })
})
