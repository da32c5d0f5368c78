/** Rules text of about `bytes`, one `## Area` section after another. */
function rulesText(bytes: number, first: number): string {
  const sections: string[] = []
  let length = 0
  for (let section = first; length < bytes; section++) {
    const text = `## Area ${section}\n\n- Always run migration check ${section} before deploying service ${section % 97}.\n- Never edit generated file ${section} by hand.\n`
    sections.push(text)
    length += text.length + 1
  }
  return sections.join('\n')
}

/**
 * About `totalBytes` of agent rules in one rules_upsert_markdown call: issue 25 sent 964 KB, seconds of
 * work for the thread that ingests it. Each file stays under the 256 KiB mk reads of one rules file
 * (a larger one is refused at once), so the whole request is ingested: a root AGENTS.md and nested ones.
 */
export function largeRulesDocuments(totalBytes: number, fileBytes = 240_000): { path: string; content: string }[] {
  const documents: { path: string; content: string }[] = []
  for (let written = 0; written < totalBytes; written += fileBytes) {
    const path = documents.length === 0 ? 'AGENTS.md' : `services/area-${documents.length}/AGENTS.md`
    documents.push({ path, content: rulesText(Math.min(fileBytes, totalBytes - written), documents.length * 10_000) })
  }
  return documents
}
