/**
 * An agent's mode biases which architecture layers and topics a task is taken to be about: an
 * architect's task is about the domain before the database, a debugging task about errors and logs.
 */
export const modes = {
  code: { layers: {}, topics: [] },
  architect: { layers: { domain: 2, application: 0.5 }, topics: [] },
  debug: { layers: { infrastructure: 0.5, application: 0.5 }, topics: ['errors', 'observability'] },
  test: { layers: { application: 0.5 }, topics: ['testing'] },
  review: { layers: {}, topics: [] },
  ask: { layers: {}, topics: [] },
} as const satisfies Record<string, { layers: Readonly<Record<string, number>>; topics: readonly string[] }>

export type ModeSlug = keyof typeof modes

export const modeSlugs = Object.keys(modes) as [ModeSlug, ...ModeSlug[]]
