/** Text decoration a reporter may use; the CLI passes colours on a terminal, everyone else identity functions. */
export interface ReportStyle {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  yellow(text: string): string
  green(text: string): string
  cyan(text: string): string
}
