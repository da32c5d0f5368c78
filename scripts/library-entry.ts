import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/*
 * The package's import entry (ADR 0016): dist/library/index.js takes openMk and
 * MkError from the CommonJS bundle, loaded as the CLI loads it, and
 * dist/library/index.d.ts declares them with every type written out. The types of src/hosts/library/index.ts are mapped from
 * the registry's zod schemas, and zod is bundled, not installed: so the compiler
 * expands each exported type here, and the declarations need no package at all.
 */
const root = new URL('../../', import.meta.url)
const entry = fileURLToPath(new URL('src/hosts/library/index.ts', root))
const outDir = new URL('dist/library/', root)

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
}

const program = ts.createProgram([entry], compilerOptions)
const checker = program.getTypeChecker()
const source = program.getSourceFile(entry)
const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
if (moduleSymbol === undefined) throw new Error(`${entry}: not a module the compiler can read`)

const expand = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.MultilineObjectLiterals | ts.NodeBuilderFlags.IgnoreErrors
const { factory } = ts
const exported = [factory.createModifier(ts.SyntaxKind.ExportKeyword)]
const declared = [...exported, factory.createModifier(ts.SyntaxKind.DeclareKeyword)]

function typeNode(type: ts.Type): ts.TypeNode {
  const node = checker.typeToTypeNode(type, undefined, expand)
  if (node === undefined) throw new Error(`cannot write out the type ${checker.typeToString(type)}`)
  return node
}

/** The members of an object type, each with its type written out in full. */
function members(type: ts.Type): ts.TypeElement[] {
  return checker.getPropertiesOfType(type).map((property) => {
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0
    const propertyType = checker.getTypeOfSymbol(property)
    const readonly = property.declarations?.some((declaration) => (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0) === true
    const [signature, ...overloads] = propertyType.getCallSignatures()
    if (signature !== undefined && overloads.length === 0 && !optional && checker.getPropertiesOfType(propertyType).length === 0) {
      const written = checker.signatureToSignatureDeclaration(signature, ts.SyntaxKind.MethodSignature, undefined, expand) as ts.MethodSignature
      return factory.createMethodSignature(undefined, property.name, undefined, written.typeParameters, written.parameters, written.type)
    }
    const withoutUndefined = optional ? checker.getNonNullableType(propertyType) : propertyType
    return factory.createPropertySignature(
      readonly ? [factory.createModifier(ts.SyntaxKind.ReadonlyKeyword)] : undefined,
      property.name,
      optional ? factory.createToken(ts.SyntaxKind.QuestionToken) : undefined,
      typeNode(withoutUndefined),
    )
  })
}

function classDeclaration(symbol: ts.Symbol, declaration: ts.ClassDeclaration): ts.ClassDeclaration {
  const instance = checker.getDeclaredTypeOfSymbol(symbol)
  const base = declaration.heritageClauses?.flatMap((clause) => clause.types) ?? []
  const constructors = checker
    .getTypeOfSymbol(symbol)
    .getConstructSignatures()
    .map((signature) => checker.signatureToSignatureDeclaration(signature, ts.SyntaxKind.Constructor, undefined, expand) as ts.ConstructorDeclaration)
  const own = checker.getPropertiesOfType(instance).filter((property) => property.valueDeclaration?.parent === declaration)
  const properties = own.map((property) =>
    factory.createPropertyDeclaration(
      [factory.createModifier(ts.SyntaxKind.ReadonlyKeyword)],
      property.name,
      undefined,
      typeNode(checker.getTypeOfSymbol(property)),
      undefined,
    ),
  )
  return factory.createClassDeclaration(
    declared,
    symbol.name,
    undefined,
    [factory.createHeritageClause(ts.SyntaxKind.ExtendsKeyword, base)],
    [...constructors, ...properties],
  )
}

/** One exported name of the entry, declared with its types written out. */
function declaration(exportedSymbol: ts.Symbol): ts.Statement {
  const symbol = exportedSymbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exportedSymbol) : exportedSymbol
  const name = exportedSymbol.name
  const [first] = symbol.declarations ?? []
  if (first !== undefined && ts.isClassDeclaration(first)) return classDeclaration(symbol, first)
  if (symbol.flags & ts.SymbolFlags.Function) {
    const [signature] = checker.getTypeOfSymbol(symbol).getCallSignatures()
    if (signature === undefined) throw new Error(`${name} has no call signature`)
    const written = checker.signatureToSignatureDeclaration(signature, ts.SyntaxKind.FunctionDeclaration, undefined, expand) as ts.FunctionDeclaration
    return factory.createFunctionDeclaration(declared, undefined, name, undefined, written.parameters, written.type, undefined)
  }
  if (symbol.flags & ts.SymbolFlags.Variable) {
    return factory.createVariableStatement(
      declared,
      factory.createVariableDeclarationList(
        [factory.createVariableDeclaration(name, undefined, typeNode(checker.getTypeOfSymbol(symbol)))],
        ts.NodeFlags.Const,
      ),
    )
  }
  const type = checker.getDeclaredTypeOfSymbol(symbol)
  if ((type.flags & ts.TypeFlags.Object) === 0) return factory.createTypeAliasDeclaration(exported, name, undefined, typeNode(type))
  return factory.createInterfaceDeclaration(exported, name, undefined, undefined, members(type))
}

const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed })
const printed = ts.createSourceFile('index.d.ts', '', ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS)
const statements = checker.getExportsOfModule(moduleSymbol).map((symbol) => printer.printNode(ts.EmitHint.Unspecified, declaration(symbol), printed))
const declarations = ['// Generated by scripts/library-entry.ts from the tool registry (ADR 0016).', ...statements, ''].join('\n\n')

// Loaded as bin/run.js loads it (src/hosts/cli/load-bundle.ts): with the V8 code cache, importing took a third of the time a plain require() took.
const runtime = `// Generated by scripts/library-entry.ts (ADR 0016): mk's library runs in mk's bundle.
import { fileURLToPath } from 'node:url'
import { loadBundle } from '../src/hosts/cli/load-bundle.js'

const bundle = loadBundle(fileURLToPath(new URL('../bundle/mk.cjs', import.meta.url)))

export const { MkError, errorCodes } = bundle

export function openMk(options) {
  return bundle.openMk(options)
}
`

await mkdir(outDir, { recursive: true })
const declarationFile = fileURLToPath(new URL('index.d.ts', outDir))
await writeFile(declarationFile, declarations)
await writeFile(new URL('index.js', outDir), runtime)

// The declarations must stand alone: a type that names something they do not declare fails the build here, not in a user's project.
const check = ts.createProgram([declarationFile], { ...compilerOptions, skipLibCheck: false })
const problems = ts.getPreEmitDiagnostics(check).filter((diagnostic) => diagnostic.file?.fileName === declarationFile)
if (problems.length > 0) {
  throw new Error(
    `dist/library/index.d.ts does not stand alone:\n${ts.formatDiagnostics(problems, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => fileURLToPath(root), getNewLine: () => '\n' })}`,
  )
}
