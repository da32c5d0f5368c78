import type { MemoryIdentity } from '../memory/locations.js'
import { detectContext, type DetectedContext } from './context.js'
import type { DirectiveIndexAccess, DirectiveSetLoader } from './index-access.js'
import type { ModeSlug } from './modes.js'

export interface TaskContextPlace {
  index: DirectiveIndexAccess
  identity: MemoryIdentity
  directiveSet: DirectiveSetLoader
  warn(message: string): void
}

/**
 * What a task text is about (layer, topics, keywords), read with the vocabulary of the accepted
 * knowledge: the detection rules_query_directives ranks with.
 */
export async function detectTaskContext(text: string, modeSlug: ModeSlug | undefined, place: TaskContextPlace): Promise<DetectedContext> {
  const index = await place.index.open(place.warn)
  await place.index.refresh({ identity: place.identity, folders: [], memory: false, warn: place.warn })
  const set = await place.directiveSet(index, ['accepted'])
  return detectContext(text, set.vocabulary, modeSlug)
}
