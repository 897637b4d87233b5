import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitConfigEnvironment, gitNeutralConfig } from "@agentool/contract/policy";

/** Where the gitattributes file of {@link GitSecretAttributes} appears inside the sandbox. */
export const SANDBOX_GIT_ATTRIBUTES = "/run/agentool/gitattributes";

/**
 * A gitattributes file marking every secret path `binary`, so `git log -p`, `git show` and
 * `git grep` say "Binary files differ" instead of printing a committed `.env`. Written once, on
 * first use, to a private temporary directory.
 */
export class GitSecretAttributes {
  private written: string | undefined;

  /** @param secretPaths - the workspace's secret globs */
  constructor(private readonly secretPaths: readonly string[]) {}

  /** The file's path (written on the first call). */
  file(): string {
    if (this.written !== undefined) return this.written;
    const directory = mkdtempSync(join(tmpdir(), "agentool-git-attributes-"));
    const file = join(directory, "attributes");
    const lines = this.secretPaths.flatMap((glob) => [`${glob} binary`, `${glob}/** binary`]);
    writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
    this.written = file;
    return file;
  }
}

/**
 * Command-scope config for an allowed git (`GIT_CONFIG_COUNT` beats every config file, the
 * repository's own included): the contract's git-neutral configuration (no config-driven
 * program from a hostile repository, hooks off), and committed secret files shown as binary.
 *
 * @param attributesFile - the secret paths' gitattributes file, as git sees it
 * @returns the variables to add to git's environment
 */
export function gitEnvironment(attributesFile: string): Record<string, string> {
  const entries = gitNeutralConfig({ extra: [["core.attributesFile", attributesFile]] });
  return { ...gitConfigEnvironment(entries), GIT_PAGER: "cat" };
}
