/** A tool's method name in the library: `memory_search` → `memorySearch`. */
export type MethodName<ToolName extends string> = ToolName extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<MethodName<Tail>>}` : ToolName

export function methodName<ToolName extends string>(toolName: ToolName): MethodName<ToolName> {
  return toolName.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase()) as MethodName<ToolName>
}
