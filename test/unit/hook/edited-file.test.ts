import { describe, expect, it } from 'vitest'
import { editedFile } from '../../../src/hook/edited-file.js'
import { MkError } from '../../../src/errors.js'

const disk = (files: Record<string, string>) => (path: string) => files[path]

describe('editedFile', () => {
  it('gives a Write its content, and a new file no before', () => {
    expect(editedFile('Write', { file_path: 'a.ts', content: 'x' }, disk({}))).toEqual({ path: 'a.ts', before: undefined, after: 'x' })
  })

  it('replaces the first occurrence for Edit, every one with replace_all, and takes $ in new_string literally', () => {
    const read = disk({ 'a.ts': 'a a a' })
    expect(editedFile('Edit', { file_path: 'a.ts', old_string: 'a', new_string: '$&b' }, read)?.after).toBe('$&b a a')
    expect(editedFile('Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: true }, read)?.after).toBe('b b b')
  })

  it('changes nothing when old_string is not in the file (the tool itself fails)', () => {
    expect(editedFile('Edit', { file_path: 'a.ts', old_string: 'zzz', new_string: 'b' }, disk({ 'a.ts': 'a' }))?.after).toBe('a')
  })

  it('applies MultiEdit edits in order, each on the result of the one before', () => {
    const edits = [
      { old_string: 'one', new_string: 'two', replace_all: true },
      { old_string: 'two two', new_string: 'three' },
    ]
    expect(editedFile('MultiEdit', { file_path: 'a.ts', edits }, disk({ 'a.ts': 'one one' }))?.after).toBe('three')
  })

  it('replaces, inserts and deletes notebook cells by id', () => {
    const notebook = JSON.stringify({ cells: [{ id: 'c1', cell_type: 'code', source: 'old' }] })
    const read = disk({ 'n.ipynb': notebook })
    const replaced = editedFile('NotebookEdit', { notebook_path: 'n.ipynb', cell_id: 'c1', new_source: 'new' }, read)
    expect(JSON.parse(replaced?.after ?? '')).toEqual({ cells: [{ id: 'c1', cell_type: 'code', source: 'new' }] })
    const inserted = editedFile('NotebookEdit', { notebook_path: 'n.ipynb', cell_id: 'c1', new_source: 'md', cell_type: 'markdown', edit_mode: 'insert' }, read)
    expect(JSON.parse(inserted?.after ?? '').cells).toHaveLength(2)
    const deleted = editedFile('NotebookEdit', { notebook_path: 'n.ipynb', cell_id: 'c1', edit_mode: 'delete' }, read)
    expect(JSON.parse(deleted?.after ?? '').cells).toEqual([])
  })

  it('is undefined for tools that write no file', () => {
    expect(editedFile('Bash', { command: 'ls' }, disk({}))).toBeUndefined()
  })

  it('rejects malformed input, naming the field', () => {
    for (const [tool, input, field] of [
      ['Write', { file_path: 'a.ts' }, 'tool_input.content'],
      ['Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: 'yes' }, 'tool_input.replace_all'],
      ['MultiEdit', { file_path: 'a.ts', edits: [{ old_string: 'a' }] }, 'tool_input.edits[0].new_string'],
      ['Write', 'a.ts', 'tool_input'],
    ] as const) {
      let thrown: unknown
      try {
        editedFile(tool, input, disk({}))
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(MkError)
      expect((thrown as MkError).details).toMatchObject({ field })
    }
  })
})
