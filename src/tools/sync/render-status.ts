import type { Style } from '../../style.js'
import { renderTable } from '../table.js'
import { plural } from '../../text.js'

interface StatusView {
  healthy: boolean
  problems: string[]
  timeSinceSync: string
  failedItems: { source: string; path: string; message: string }[]
  stats: { totalSyncs: number; totalItemsSynced: number; avgSyncDurationMs: number }
  sources: {
    name: string
    layer: string
    commit: string | null
    error: { message: string; hint?: string | undefined } | null
    remote: { reachable: boolean; behind: boolean; error: { hint?: string | undefined } | null } | null
  }[]
}

function remoteState(source: StatusView['sources'][number]): string {
  if (source.remote === null) return source.commit === null ? '-' : 'not checked'
  if (!source.remote.reachable) return 'unreachable'
  return source.remote.behind ? 'behind (run mk sync)' : 'up to date'
}

export function renderSyncStatus(status: StatusView, style: Style): string {
  const headline = status.healthy ? style.green('healthy') : style.red('not healthy')
  const table = renderTable(
    status.sources,
    [
      { header: 'SOURCE', value: (source) => source.name, decorate: (text) => style.cyan(text) },
      { header: 'LAYER', value: (source) => source.layer },
      { header: 'COMMIT', value: (source) => source.commit?.slice(0, 7) ?? '-' },
      { header: 'REMOTE', value: remoteState, decorate: (text, source) => (source.remote?.reachable === false ? style.red(text) : text) },
      { header: 'LAST ERROR', value: (source) => source.error?.message ?? '', max: 80 },
    ],
    style.bold,
  )
  const hints = [
    ...new Set(status.sources.flatMap((source) => [source.remote?.error?.hint, source.error?.hint]).filter((hint): hint is string => hint !== undefined)),
  ]
  return [
    `Sync: ${headline}, last sync ${status.timeSinceSync}`,
    table,
    ...status.problems.map((problem) => `${style.red('✗')} ${problem}`),
    ...status.failedItems.map((item) => `${style.red('✗')} ${item.message}`),
    ...hints.map((hint) => `  ${style.dim('fix:')} ${hint}`),
    style.dim(
      `${plural(status.stats.totalSyncs, 'sync')}, ${plural(status.stats.totalItemsSynced, 'item change')}, ${status.stats.avgSyncDurationMs} ms on average`,
    ),
  ].join('\n')
}
