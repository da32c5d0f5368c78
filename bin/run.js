#!/usr/bin/env node
import { fileURLToPath } from 'node:url'
import { loadBundle } from '../dist/src/cli/load-bundle.js'

await loadBundle(fileURLToPath(new URL('../dist/bundle/mk.cjs', import.meta.url))).run(import.meta.url)
