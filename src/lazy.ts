/**
 * A value built the first time it is asked for, then kept. For what a short command seldom
 * needs but costs to build at module load (a zod schema: a command that only prints its
 * display never checks its output against one).
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => (built ??= { value: build() }).value
}
