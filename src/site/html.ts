/** Text for HTML content and attribute values: the five characters that could end either. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

export type HtmlPart = Html | string | number | undefined | readonly HtmlPart[]

function render(part: HtmlPart): string {
  if (part === undefined) return ''
  if (part instanceof Html) return part.value
  if (Array.isArray(part)) return part.map(render).join('')
  return escapeHtml(String(part as string | number))
}

export function html(strings: TemplateStringsArray, ...parts: HtmlPart[]): Html {
  return new Html(strings.reduce((text, piece, index) => text + piece + (index < parts.length ? render(parts[index]) : ''), ''))
}
