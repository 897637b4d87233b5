import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import type { ReadmeBlock } from "./readme-blocks.js";
import { blockSlug } from "./run-block.js";

/** One type error in a fragment, located in its README. */
export interface FragmentProblem {
  /** `README path:line` of the offending line. */
  location: string;
  /** The compiler's message. */
  message: string;
}

/**
 * Type-checks fragments against the built packages, each as its own module under
 * `folder` (whose `node_modules` serves the imports), with strict settings, Node and DOM types.
 * A fragment must compile on its own: what a host provides, it declares (`declare const panel:
 * HTMLElement;`).
 *
 * @param fragments - the blocks marked `<!-- doc-test: fragment -->`
 * @param folder - a scratch folder inside this package (emptied first)
 * @returns every error, mapped back to the README line (empty when all compile)
 */
export function typecheckFragments(
  fragments: readonly ReadmeBlock[],
  folder: string,
): FragmentProblem[] {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const files = new Map<string, ReadmeBlock>();
  for (const fragment of fragments) {
    const file = join(folder, `${blockSlug(fragment)}.ts`);
    // `export {}` makes every fragment a module, so top-level await and its own names are allowed.
    writeFileSync(file, `${fragment.code}\nexport {};\n`);
    files.set(file, fragment);
  }
  const program = ts.createProgram([...files.keys()], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const fragment =
      diagnostic.file === undefined ? undefined : files.get(diagnostic.file.fileName);
    const line =
      diagnostic.file !== undefined && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line
        : 0;
    return {
      location:
        fragment === undefined
          ? (diagnostic.file?.fileName ?? "(program)")
          : `${fragment.readme}:${fragment.line + 1 + line}`,
      message: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
    };
  });
}
