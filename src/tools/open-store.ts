import { openFilesStore } from '../stores/files/files-store.js'
import type { Store, StorePlace } from '../stores/store.js'

/**
 * The one place that picks a tenant's store; every host reaches it through the dispatcher.
 * Today there is one implementation, files + SQLite. A second store (PostgreSQL, issue 31) is
 * chosen here from the host's settings (`--store`, MK_STORE) and nowhere else.
 */
export function openStore(place: StorePlace): Store {
  return openFilesStore(place)
}
