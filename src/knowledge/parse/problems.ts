import type { KnowledgeProblem, ProblemSeverity } from '../model.js'

/** The problems of one file, each with its line. */
export class ProblemList {
  readonly problems: KnowledgeProblem[] = []
  constructor(private readonly file: string) {}
  add(severity: ProblemSeverity, line: number, code: string, message: string, extra: Pick<KnowledgeProblem, 'hidesConstraints'> = {}): void {
    this.problems.push({ file: this.file, line, code, message, severity, ...extra })
  }
  error(line: number, code: string, message: string): void {
    this.add('error', line, code, message)
  }
  warning(line: number, code: string, message: string): void {
    this.add('warning', line, code, message)
  }
}
