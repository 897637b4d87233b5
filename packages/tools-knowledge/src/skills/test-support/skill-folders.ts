import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** The text of a SKILL.md with the given front matter fields and body. */
export function skillText(
  name: string,
  description: string,
  body = "# Steps\n\n1. Do it.\n",
): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** Temporary skills folders, removed after each test. */
export function useSkillFolders() {
  const made: string[] = [];
  afterEach(() => {
    for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
  });
  return {
    /** A fresh empty folder (real path). */
    folder(): string {
      const path = realpathSync(mkdtempSync(join(tmpdir(), "agentool-skills-")));
      made.push(path);
      return path;
    },
    /** Writes `files` (path → text) under `root`, making folders. */
    write(root: string, files: Record<string, string | Uint8Array>): void {
      for (const [path, content] of Object.entries(files)) {
        const absolute = join(root, path);
        mkdirSync(dirname(absolute), { recursive: true });
        writeFileSync(absolute, content);
      }
    },
    /** Writes one skill (`<root>/<name>/SKILL.md` and its files). */
    skill(
      root: string,
      name: string,
      description: string,
      files: Record<string, string | Uint8Array> = {},
      body?: string,
    ): string {
      const folder = join(root, name);
      this.write(folder, { "SKILL.md": skillText(name, description, body), ...files });
      return folder;
    },
  };
}
