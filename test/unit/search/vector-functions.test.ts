import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openDatabase } from '../../../src/search/open-database.js'
import { statement } from '../../../src/search/statements.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-vector-functions-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const hasVectorFunctions = (db: Database.Database): boolean =>
  db.prepare("SELECT count(*) FROM pragma_function_list WHERE name = 'vec_distance_cosine'").pluck().get() === 1

it('opens the index without sqlite-vec, and loads it for the first statement that compares vectors', () => {
  const { db } = openDatabase(join(dir, 'index.db'))
  // Most commands (memory add, a full-text search) never compare vectors: they no longer pay for loading the extension.
  expect(hasVectorFunctions(db)).toBe(false)
  statement(db, 'SELECT count(*) FROM docs', 'pluck').get()
  expect(hasVectorFunctions(db)).toBe(false)
  const one = new Float32Array([1, 0])
  expect(statement(db, 'SELECT vec_distance_cosine(?, ?)', 'pluck').get(one, one)).toBe(0)
  expect(hasVectorFunctions(db)).toBe(true)
  db.close()
})
