import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temporary repository made with the real git binary, for tests. */
export interface TemporaryRepository {
  /** The directory that holds the repository and its siblings. */
  base: string;
  /** The repository root. */
  root: string;
  /** Runs git in the repository (plain git: no hardening) and returns stdout. */
  git(...args: string[]): string;
  /** Writes a file (creating directories). */
  write(path: string, content: string | Buffer): void;
  /** Writes a file and commits it. */
  commit(path: string, content: string, message: string): string;
  /** Deletes everything. */
  remove(): void;
}

/**
 * Creates a repository with `git init` in os.tmpdir(), with user.name and user.email set.
 *
 * @param options - `empty` skips the first commit
 * @returns the repository
 */
export function createTemporaryRepository(options: { empty?: boolean } = {}): TemporaryRepository {
  const base = mkdtempSync(join(tmpdir(), "agentool-git-"));
  const root = join(base, "repository");
  mkdirSync(root);
  const environment = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_DATE: "2024-01-02T03:04:05Z",
    GIT_COMMITTER_DATE: "2024-01-02T03:04:05Z",
  };
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: root, env: environment, encoding: "utf8" });
  git("init", "--quiet", "--initial-branch=main");
  git("config", "user.name", "Test User");
  git("config", "user.email", "test@example.com");
  git("config", "commit.gpgSign", "false");
  const write = (path: string, content: string | Buffer) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  const repository: TemporaryRepository = {
    base,
    root,
    git,
    write,
    commit(path, content, message) {
      write(path, content);
      git("add", "--", path);
      git("commit", "--quiet", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
    remove() {
      rmSync(base, { recursive: true, force: true });
    },
  };
  if (!options.empty) repository.commit("README.md", "# Project\n", "Initial commit");
  return repository;
}
