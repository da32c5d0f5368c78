import { Box, Text } from 'ink'
import type { ProgressEvent } from '../../tools/context.js'

const width = 30

/** One line: the phase, a bar when the total is known, and the count. */
export function ProgressBar({ event }: { event: ProgressEvent }) {
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
