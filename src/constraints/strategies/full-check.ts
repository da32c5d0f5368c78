import type { CheckInput } from '../input/input.js'
import { aggregatesOf } from '../pipeline/aggregates.js'
import { assembleReport } from '../pipeline/assemble-report.js'
import { evaluateInput, listingsOf, reportFrame } from '../pipeline/evaluate-input.js'
import { baselineView, settlementOf, type CheckPreparation } from '../pipeline/prepare.js'
import type { CheckReport } from '../pipeline/report.js'
import { readBaseline } from '../waivers/baseline.js'
import { loadFileWaivers } from '../waivers/waivers.js'

/** The plain evaluation every other strategy must equal: read every file of the input, settle, assemble. */
export async function checkFull(preparation: CheckPreparation, input: CheckInput): Promise<CheckReport> {
  const { workspace, options } = preparation
  const baseline = options.useBaseline ? readBaseline(workspace.root, preparation.baselineFile) : undefined
  const grouped = baseline === undefined ? undefined : baselineView(baseline)
  const settlement = settlementOf(preparation, loadFileWaivers(workspace.root, preparation.waiversFile), grouped?.view)
  const { contributions } = await evaluateInput(preparation, input, settlement)
  const aggregates = aggregatesOf(preparation.rules.length, settlement.waivers.fileWaivers.length, contributions.values(), input.symlinksSkipped)
  return assembleReport(settlement, listingsOf(contributions), aggregates, reportFrame(preparation, input, grouped?.total))
}
