import { readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { MkError, isNodeError } from '../errors.js'
import { parseTranscript, type Transcript } from './transcript.js'

/** Larger transcripts are skipped with a warning: the report reads every line into memory. */
const maxTranscriptBytes = 64 * 1024 * 1024

/** Where Claude Code keeps a project's session transcripts: its path with every `/` and `.` as `-`, under ~/.claude/projects. */
export function claudeProjectFolder(projectRoot: string, home = homedir()): string {
  return join(home, '.claude', 'projects', projectRoot.replace(/[/\\.:]/g, '-'))
}

function transcriptFiles(path: string, origin: string): string[] {
  let stats
  try {
    stats = statSync(path)
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') {
      throw new MkError('NOT_FOUND', `${origin}: ${path} does not exist`, {
        details: { path, hint: 'pass --transcript FILE|DIR with Claude Code session transcripts (*.jsonl)' },
      })
    }
    throw error
  }
  if (!stats.isDirectory()) return [path]
  return readdirSync(path)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(path, name))
}

/** Read the transcripts of the given files and folders (a folder: its *.jsonl files). */
export async function readTranscripts(paths: readonly string[], origin: string, warn: (message: string) => void): Promise<Transcript[]> {
  const transcripts: Transcript[] = []
  for (const file of paths.flatMap((path) => transcriptFiles(path, origin))) {
    if (statSync(file).size > maxTranscriptBytes) {
      warn(`${file}: larger than 64 MB, skipped`)
      continue
    }
    const transcript = parseTranscript(await readFile(file, 'utf8'))
    if (transcript.unreadable > 0) warn(`${file}: ${transcript.unreadable} lines are not JSON, skipped`)
    transcripts.push(transcript)
  }
  return transcripts
}
