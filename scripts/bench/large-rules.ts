/** About `bytes` of rules in one AGENTS.md: issue 25 sent 964 KB through rules_upsert_markdown, seconds of work for the thread that ingests it. */
export function largeRulesFile(bytes: number): string {
  const sections: string[] = []
  let length = 0
  for (let section = 0; length < bytes; section++) {
    const text = `## Area ${section}\n\n- Always run migration check ${section} before deploying service ${section % 97}.\n- Never edit generated file ${section} by hand.\n`
    sections.push(text)
    length += text.length + 1
  }
  return sections.join('\n')
}
