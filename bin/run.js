#!/usr/bin/env node
import { run } from '../dist/bundle/src/cli/main.js'

await run(import.meta.url)
