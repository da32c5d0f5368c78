/** Where src/hosts/cli/load-bundle.ts lends its import() to the bundle. */
export const lentImport = Symbol.for('mk.importPackage')

type Importer = (specifier: string) => Promise<unknown>

/**
 * import() of an npm package that is not bundled. Inside mk's bundle, import()
 * has no module loader once V8 has read the code from the code cache (Node 20),
 * so the launcher lends its own; elsewhere (tests, scripts) this is a plain import().
 */
export function importPackage<Module>(specifier: string): Promise<Module> {
  const lent = (globalThis as { [lentImport]?: Importer })[lentImport]
  return (lent === undefined ? import(specifier) : lent(specifier)) as Promise<Module>
}
