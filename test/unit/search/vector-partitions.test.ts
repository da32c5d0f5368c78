import Database from 'better-sqlite3'
import { load as loadSqliteVec } from 'sqlite-vec'
import { describe, expect, it } from 'vitest'
import { createVectorTables } from '../../../src/search/schema.js'
import { listCount, maintainPartitions, nearestList, nearestVectors, trainCentroids } from '../../../src/search/vector-partitions.js'

/** Deterministic unit vectors around `clusters` random centres. */
function clustered(count: number, clusters: number, dimensions = 32): Float32Array[] {
  let state = 9
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  }
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dimensions }, random))
  return Array.from({ length: count }, (_, n) => {
    const centre = centres[n % clusters] as Float32Array
    const vector = centre.map((value) => value + random() * 0.3)
    const norm = Math.hypot(...vector)
    return vector.map((value) => value / norm)
  })
}

function store(vectors: readonly Float32Array[]): Database.Database {
  const db = new Database(':memory:')
  loadSqliteVec(db)
  db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  db.exec(createVectorTables)
  const insert = db.prepare('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)')
  vectors.forEach((vector, n) => insert.run(n + 1, Buffer.from(vector.buffer)))
  return db
}

describe('vector partitions', () => {
  it('k-means puts vectors of one cluster in one list', () => {
    const vectors = clustered(400, 4)
    const centroids = trainCentroids(vectors, 4)
    const lists = vectors.map((vector) => nearestList(centroids, vector))
    for (let cluster = 0; cluster < 4; cluster++) {
      const members = new Set(lists.filter((_, n) => n % 4 === cluster))
      expect(members.size).toBe(1)
    }
  })

  it('scans exactly until trained, then agrees with the exact scan on clustered data, and trains again only when the store doubled', () => {
    const vectors = clustered(3000, 40)
    const db = store(vectors)
    const queries = clustered(3040, 40).slice(3000)
    expect(maintainPartitions(db, 5000)).toBe(false)
    expect(nearestVectors(db, queries[0] as Float32Array, 10)).toEqual(nearestVectors(db, queries[0] as Float32Array, 10, 'exact'))
    expect(maintainPartitions(db, 1000)).toBe(true)
    expect(db.prepare('SELECT count(*) FROM vector_centroids').pluck().get()).toBe(listCount(3000))
    expect(db.prepare('SELECT count(*) FROM vectors WHERE list IS NULL').pluck().get()).toBe(0)
    let agreed = 0
    for (const query of queries) {
      const exact = new Set(nearestVectors(db, query, 10, 'exact').map((hit) => hit.rowid))
      agreed += nearestVectors(db, query, 10).filter((hit) => exact.has(hit.rowid)).length
    }
    expect(agreed / (queries.length * 10)).toBeGreaterThanOrEqual(0.95)
    expect(maintainPartitions(db, 1000)).toBe(false)
  })

  it('finds a vector added after training, before it has a list', () => {
    const vectors = clustered(2000, 20)
    const db = store(vectors)
    maintainPartitions(db, 1000)
    const added = Float32Array.from({ length: 32 }, (_, n) => (n === 0 ? 1 : 0))
    db.prepare('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)').run(5000, Buffer.from(added.buffer))
    expect(nearestVectors(db, added, 1)[0]?.rowid).toBe(5000)
  })
})
