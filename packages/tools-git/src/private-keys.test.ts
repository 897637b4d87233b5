import { afterEach, describe, expect, it } from "vitest";
import { createGitTools } from "./create-git-tools.js";
import { redactPatchKeys } from "./internal/redact.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

const KEY_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";
const KEY = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}\nVHmJ7zxWcS8SfOAeKsRk3kJ7nTi9Gm8bZpGBMRcXH1R1\n-----END RSA PRIVATE KEY-----\n`;
const OPENSSH = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ-OPENSSH-BODY\n-----END OPENSSH PRIVATE KEY-----\n`;
const PUTTY = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIPUTTY-BODY\nPrivate-MAC: 00ff\n`;

function setup() {
  const repo = createTemporaryRepository();
  repositories.push(repo);
  const tools = new Map(
    createGitTools({
      root: repo.root,
      mode: "read-write",
      author: { name: "Agent", email: "agent@example.com" },
    }).map((tool) => [tool.name, tool]),
  );
  const call = async (name: string, input: unknown) => {
    const tool = tools.get(name);
    if (tool === undefined) throw new Error(`no ${name}`);
    const result = await tool.run(input);
    return { result, text: `${JSON.stringify(result)}\n${tool.renderResult(result)}` };
  };
  return { repo, call };
}

describe("private-key content stays out of git output and commits", () => {
  it("git_show redacts a key in a commit's patch and in a file's content", async () => {
    const { repo, call } = setup();
    repo.commit("config/deploy.txt", `host: example\n${KEY}port: 22\n`, "deploy settings");
    const commit = await call("git_show", { revision: "HEAD" });
    expect(commit.result.success).toBe(true);
    expect(commit.text).not.toContain(KEY_BODY);
    expect(commit.text).toContain("[private key redacted]");
    expect(commit.text).toContain("port: 22");
    const file = await call("git_show", { revision: "HEAD", path: "config/deploy.txt" });
    expect(file.result.success).toBe(true);
    expect(file.text).not.toContain(KEY_BODY);
    expect(file.text).toContain("[private key redacted]");
    expect(file.text).toContain("host: example");
    // Paging a file line by line never shows a piece of the key either.
    for (let offset = 1; offset <= 6; offset += 1) {
      const page = await call("git_show", {
        revision: "HEAD",
        path: "config/deploy.txt",
        offset,
        limit: 1,
      });
      expect(page.text).not.toMatch(/VHmJ7zx|MIIEow/);
    }
  });

  it("git_diff redacts OpenSSH and PuTTY keys in working-tree, staged and ref diffs", async () => {
    const { repo, call } = setup();
    repo.commit("notes.md", "# notes\n", "notes");
    repo.write("notes.md", `# notes\n${OPENSSH}`);
    repo.write("tools/putty.txt", PUTTY);
    repo.git("add", "tools/putty.txt");
    for (const input of [{}, { staged: true }, { path: "notes.md" }, { ref: "HEAD" }]) {
      const diff = await call("git_diff", input);
      expect(diff.result.success, JSON.stringify(input)).toBe(true);
      expect(diff.text, JSON.stringify(input)).not.toContain("OPENSSH-BODY");
      expect(diff.text, JSON.stringify(input)).not.toContain("PUTTY-BODY");
    }
    const working = await call("git_diff", { path: "notes.md" });
    expect(working.text).toContain("+[private key redacted]");
    expect(working.text).toContain("# notes");
    // A hunk that shows only the end of a key (its BEGIN line is outside the context).
    const lines = Array.from({ length: 40 }, (_, index) => `LINE${index}AAAABBBBCCCC`);
    repo.commit(
      "long.txt",
      `-----BEGIN PRIVATE KEY-----\n${lines.join("\n")}\n-----END PRIVATE KEY-----\ntail\n`,
      "long key",
    );
    repo.write(
      "long.txt",
      `-----BEGIN PRIVATE KEY-----\n${lines.join("\n")}\n-----END PRIVATE KEY-----\ntail changed\n`,
    );
    const end = await call("git_diff", { path: "long.txt" });
    expect(end.text).not.toMatch(/LINE3\dAAAA/);
    expect(end.text).toContain("tail changed");
  });

  it("git_commit without files leaves files holding a key unstaged and says so", async () => {
    const { repo, call } = setup();
    repo.write("src/app.ts", "export const port = 8080;\n");
    repo.write("backup/server-copy.txt", KEY);
    repo.write("backup/putty.txt", PUTTY);
    const commit = await call("git_commit", { message: "everything" });
    expect(commit.result).toMatchObject({
      success: true,
      data: { skipped_private_keys: ["backup/putty.txt", "backup/server-copy.txt"] },
    });
    expect(commit.text).toMatch(/Not staged \(the content holds a private key\)/);
    expect(repo.git("show", "--name-only", "--format=", "HEAD").trim()).toBe("src/app.ts");
    expect(repo.git("status", "--porcelain")).toContain("?? backup/");
    const again = await call("git_commit", { message: "only keys left" });
    expect(again.result).toMatchObject({
      success: false,
      error: { message: expect.stringMatching(/hold a private key/) },
    });
  });
});

describe("secret exclusions reach git case-insensitively and at any depth", () => {
  it("leaves SERVER.PEM, nested .kube/config and new credential files out of diffs and commit all", async () => {
    const { repo, call } = setup();
    repo.write("src/app.ts", "export const port = 1;\n");
    repo.write("deploy/SERVER.PEM", "not-a-key-but-secret-by-name-1\n");
    repo.write("ops/home/.kube/config", "token: secret-by-name-2\n");
    repo.write("infra/prod.tfvars", 'password = "secret-by-name-3"\n');
    repo.write(".ENVRC", "export TOKEN=secret-by-name-4\n");
    repo.git("add", "-A");
    const diff = await call("git_diff", { staged: true });
    expect(diff.text).toContain("port = 1");
    expect(diff.text).not.toMatch(/secret-by-name/);
    repo.git("reset", "-q");
    const commit = await call("git_commit", { message: "all" });
    expect(commit.result.success).toBe(true);
    expect(repo.git("show", "--name-only", "--format=", "HEAD").trim()).toBe("src/app.ts");
    const show = await call("git_show", { revision: "HEAD" });
    expect(show.text).not.toMatch(/secret-by-name/);
  });
});

describe("redactPatchKeys", () => {
  it("keeps the diff prefix and the line count", () => {
    const patch = `@@ -1,2 +1,5 @@\n a\n+-----BEGIN EC PRIVATE KEY-----\n+MHcCAQEE\n+-----END EC PRIVATE KEY-----\n b\n`;
    const redacted = redactPatchKeys(patch);
    expect(redacted).toBe(
      "@@ -1,2 +1,5 @@\n a\n+[private key redacted]\n+[private key redacted]\n+[private key redacted]\n b\n",
    );
  });
});
