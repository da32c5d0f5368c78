import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Plugin } from '@oclif/core'
import { loadBundle } from '../src/hosts/cli/load-bundle.js'

/**
 * Write oclif.manifest.json so that oclif finds a command without importing
 * every command file first: it roughly halves `mk --help` and every command's start.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
// oclif require()s the commands' bundle, written to be loaded only this way: it then gets this instance.
loadBundle(join(root, 'dist', 'bundle', 'mk.cjs'))
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, isRoot: true })
await plugin.load()
await writeFile(new URL('oclif.manifest.json', `file://${root}/`), `${JSON.stringify(plugin.manifest, null, 2)}\n`)
process.stdout.write(`oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands\n`)
