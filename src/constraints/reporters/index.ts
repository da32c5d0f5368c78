import type { CheckReport } from '../pipeline/report.js'
import { toCheckResult } from '../contract.js'
import type { ReportFormat } from './formats.js'
import { renderGithub } from './github.js'
import { renderSarif, type ToolInfo } from './sarif.js'
import type { Style } from '../../style.js'
import { renderText } from './text.js'

export const reporters: Readonly<Record<ReportFormat, (report: CheckReport, style: Style, tool: ToolInfo) => string>> = {
  text: renderText,
  json: (report) => JSON.stringify(toCheckResult(report), null, 2),
  sarif: (report, _style, tool) => renderSarif(report, tool),
  github: renderGithub,
}
