import type { Box, Text } from 'ink'
import type { ProgressEvent } from '../../../tools/context.js'

const width = 30

/** ink's components, passed in by the caller that imported ink: ink is imported only when a bar is drawn. */
export interface InkComponents {
  Box: typeof Box
  Text: typeof Text
}

/** One line: the phase, a bar when the total is known, and the count. */
export function ProgressBar({ event, ink: { Box, Text } }: { event: ProgressEvent; ink: InkComponents }) {
  const fraction = event.total === undefined || event.total === 0 ? undefined : Math.min(1, event.done / event.total)
  const filled = fraction === undefined ? 0 : Math.round(fraction * width)
  return (
    <Box>
      <Text>{event.phase.padEnd(14)}</Text>
      {fraction === undefined ? null : (
        <Text>
          <Text color="green">{'█'.repeat(filled)}</Text>
          <Text dimColor>{'░'.repeat(width - filled)}</Text>{' '}
        </Text>
      )}
      <Text>{event.total === undefined ? `${event.done}` : `${event.done}/${event.total}`}</Text>
      {event.message === undefined ? null : <Text dimColor> {event.message}</Text>}
    </Box>
  )
}
