import { join, relative } from 'node:path'
import type { Workspace } from '../../config/workspace.js'
import { writeFileAtomic } from '../../fs/atomic-write.js'
import { withLock } from '../../fs/lock.js'
import { requireResolvesWithin, writableFolders } from '../../fs/path-guard.js'
import { toPosix } from '../../fs/walk.js'
import { pickSource } from '../../knowledge/create.js'
import { FrontmatterSyntaxError, parseFrontmatter } from '../../knowledge/frontmatter.js'
import type { KnowledgeBase } from '../../knowledge/load.js'
import { parseKnowledgeFile } from '../../knowledge/parse.js'
import { redactSecrets } from '../../memory/redact.js'
import { generatedMarker } from '../export/render.js'
import { extractDirectives } from '../extract.js'
import type { Directive } from '../model.js'
import type { RuleFormat } from './formats.js'
import type { SourceDocument } from './read-documents.js'
import { comparable, findRelations, type RelatedItem, type RuleRelation } from './relations.js'
import { renderIngestedRule, type IngestedRule } from './render.js'
import { FileTooLargeError, maxRulesFileBytes } from '../../fs/read-capped.js'
import { readTextIfExists } from '../../fs/read-if-exists.js'

export interface UpsertOptions {
  /** Rewrite an ingested item whose file differs from what the source gives now (edited by hand, or an older ingest). */
  overwrite: boolean
  /** Files written per hold of the lock, so a large ingest lets other writers in between. */
  batchSize: number
}

export type UpsertAction = 'created' | 'updated' | 'unchanged' | 'skipped'

export interface UpsertedItem {
  id: string
  /** Workspace-relative path of the knowledge file. */
  path: string
  sourcePath: string
  format: RuleFormat
  action: UpsertAction
}

export interface UpsertResult {
  /** Counts over the items created or updated by this call: none when nothing changed. */
  upserted: { rules: number; sections: number; directives: number; patterns: number }
  items: UpsertedItem[]
  relations: RuleRelation[]
  warnings: string[]
}

interface Planned {
  rule: IngestedRule
  absolutePath: string
  path: string
  directives: Directive[]
}

/** Only a file an earlier ingest of the same source wrote may be replaced: hand-written knowledge never is. */
function writtenByIngestOf(existing: string, sourcePath: string): boolean {
  try {
    const { data } = parseFrontmatter(existing)
    return data.source_path === sourcePath && typeof data.ingested_from === 'string'
  } catch (error) {
    if (error instanceof FrontmatterSyntaxError) return false
    throw error
  }
}

async function plan(workspace: Workspace, directory: string, source: SourceDocument, warnings: string[]): Promise<Planned> {
  const { text, redactions } = await redactSecrets(source.text)
  if (redactions.length > 0) {
    warnings.push(`${source.path}: redacted ${redactions.map((entry) => `${entry.count} ${entry.kind}`).join(', ')} before writing its rule item`)
  }
  for (const missing of source.missingImports ?? []) warnings.push(`${source.path}: imports @${missing}, which is not a file in the workspace`)
  const rule = renderIngestedRule(source.path, source.format, text, source.importedBy)
  const absolutePath = join(directory, `${rule.id}.md`)
  const path = toPosix(relative(workspace.root, absolutePath))
  // An item over the cap would load as no item at all, and stop every knowledge check.
  if (Buffer.byteLength(rule.content) > maxRulesFileBytes) throw new FileTooLargeError(`${source.path} (as the rule item ${path})`, maxRulesFileBytes)
  const parsed = await parseKnowledgeFile({ path, absolutePath, source: 'project', layer: 'project', text: rule.content })
  return { rule, absolutePath, path, directives: parsed.item === undefined ? [] : extractDirectives(parsed.item) }
}

async function upsertOne(entry: Planned, base: KnowledgeBase, options: UpsertOptions, warnings: string[]): Promise<UpsertAction> {
  const { rule, path } = entry
  const clash = base.allItems.find((item) => item.id === rule.id && item.path !== path)
  if (clash !== undefined) {
    warnings.push(`${rule.sourcePath}: not ingested: the id "${rule.id}" is taken by ${clash.path}`)
    return 'skipped'
  }
  const existing = await readTextIfExists(entry.absolutePath)
  if (existing === rule.content) return 'unchanged'
  if (existing !== undefined && !writtenByIngestOf(existing, rule.sourcePath)) {
    warnings.push(`${rule.sourcePath}: not ingested: ${path} exists and was not written by an ingest of this file`)
    return 'skipped'
  }
  if (existing !== undefined && !options.overwrite) {
    warnings.push(`${rule.sourcePath}: ${path} differs from the source and overwrite is off; left as it is`)
    return 'skipped'
  }
  await writeFileAtomic(entry.absolutePath, rule.content)
  return existing === undefined ? 'created' : 'updated'
}

/**
 * Whether a file mk rules export wrote came from this knowledge: another item (not the one an
 * earlier ingest of this file wrote) states one of its rules. Copied into another repository, the
 * same file is that repository's rules, and is ingested like any other.
 */
function exportedFrom(entry: Planned, existing: readonly RelatedItem[]): boolean {
  const texts = new Set(entry.directives.map((directive) => comparable(directive.text)))
  return existing.some((item) => item.id !== entry.rule.id && item.directives.some((directive) => texts.has(comparable(directive.text))))
}

/**
 * Write each agent rule file as a rule item in the rules folder of the project knowledge source
 * (`knowledge/rules/<id>.md`). A file whose text would not change is not touched, so ingesting
 * the same sources again writes nothing.
 */
export async function upsertRuleDocuments(
  workspace: Workspace,
  base: KnowledgeBase,
  sources: readonly SourceDocument[],
  options: UpsertOptions,
): Promise<UpsertResult> {
  const source = pickSource(base, workspace, undefined)
  const directory = join(source.directory, 'rules')
  requireResolvesWithin(writableFolders(workspace.root, workspace.mkHome), directory, `knowledge source "${source.name}"`)
  const warnings: string[] = []
  const planned: Planned[] = []
  const existing = base.items
    .filter((item) => item.status === 'accepted')
    .map((item) => ({ id: item.id, appliesTo: item.appliesTo, directives: extractDirectives(item) }))
  for (const document of sources) {
    const entry = await plan(workspace, directory, document, warnings)
    // Ingesting what export wrote from this knowledge would copy its rules into one more item; an export from elsewhere is new rules.
    if (document.text.includes(generatedMarker) && exportedFrom(entry, existing))
      warnings.push(`${document.path}: skipped: mk rules export wrote it from the knowledge, which holds its rules already`)
    else planned.push(entry)
  }

  const actions: UpsertAction[] = []
  const lock = join(workspace.stateDir, 'locks', `knowledge-${source.name}`)
  for (let start = 0; start < planned.length; start += options.batchSize) {
    const batch = planned.slice(start, start + options.batchSize)
    await withLock(lock, { what: `knowledge source "${source.name}"`, onBusy: 'wait' }, async () => {
      for (const entry of batch) actions.push(await upsertOne(entry, base, options, warnings))
    })
  }

  const changed = planned.filter((_, index) => actions[index] === 'created' || actions[index] === 'updated')
  return {
    upserted: {
      rules: changed.length,
      sections: changed.reduce((sum, entry) => sum + entry.rule.sections, 0),
      directives: changed.reduce((sum, entry) => sum + entry.directives.length, 0),
      patterns: changed.reduce((sum, entry) => sum + entry.rule.appliesTo.length, 0),
    },
    items: planned.map((entry, index) => ({
      id: entry.rule.id,
      path: entry.path,
      sourcePath: entry.rule.sourcePath,
      format: entry.rule.format,
      action: actions[index] ?? 'skipped',
    })),
    relations: findRelations(
      planned.map((entry) => ({ id: entry.rule.id, appliesTo: entry.rule.appliesTo, directives: entry.directives })),
      existing,
    ),
    warnings,
  }
}
