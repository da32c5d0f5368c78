#!/usr/bin/env node
import { execute } from '../dist/bundle/src/cli/main.js'

await execute({ dir: import.meta.url })
