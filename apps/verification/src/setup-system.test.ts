// The set-up step of both README commands (scripts/setup-system.mjs) on a machine that lacks the
// system packages: a copy-on-write view of this machine (an overlay of / in a private mount
// namespace, entered with chroot) where they are removed, so the real machine keeps them.
// As root it really installs what is missing from Debian's packages; as another user it says
// why it cannot and the line that would.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repository = resolve(import.meta.dirname, "../../..");
const setupScript = join(repository, "scripts", "setup-system.mjs");

/** Why this machine cannot build the overlay view, or undefined when it can. */
function overlayUnavailable(): string | undefined {
  if (process.platform !== "linux") return "Linux only";
  if (process.getuid?.() !== 0) return "needs root (mount namespaces and apt-get)";
  const probe = spawnSync("unshare", ["--mount", "--fork", "true"], { encoding: "utf8" });
  return probe.status === 0 ? undefined : `unshare failed: ${probe.stderr.trim()}`;
}

const unavailable = overlayUnavailable();
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs `prepare` then `command` (shell lines) inside a private copy-on-write view of this
 * machine, with this repository bound at its own path.
 */
function inOverlay(prepare: string, command: string) {
  const base = mkdtempSync(join(tmpdir(), "agentool-overlay-"));
  folders.push(base);
  for (const part of ["upper", "work", "merged"]) mkdirSync(join(base, part));
  const merged = join(base, "merged");
  const script = [
    "set -e",
    `mount -t overlay overlay -o lowerdir=/,upperdir=${base}/upper,workdir=${base}/work ${merged}`,
    `for point in proc dev sys; do mount --rbind /$point ${merged}/$point; done`,
    `mkdir -p ${merged}${repository} && mount --bind ${repository} ${merged}${repository}`,
    `chroot ${merged} sh -c '${prepare}'`,
    `exec chroot ${merged} sh -c '${command}'`,
  ].join("\n");
  return spawnSync("unshare", ["--mount", "--fork", "sh", "-c", script], {
    encoding: "utf8",
    timeout: 600_000,
  });
}

describe.skipIf(unavailable !== undefined)(
  "setup-system on a machine without the packages",
  { timeout: 600_000 },
  () => {
    it("installs a missing package with apt-get as root and says so (pnpm demo's set-up)", () => {
      const outcome = inOverlay(
        "dpkg --purge bubblewrap >/dev/null && ! command -v bwrap",
        `node ${setupScript} demo`,
      );
      const printed = `${outcome.stdout}${outcome.stderr}`;
      expect(printed).toContain(
        "=== setup: bubblewrap is missing — needed by run_command's sandbox",
      );
      expect(printed).toContain(
        "=== setup: installing with Debian's packages: apt-get install -y bubblewrap",
      );
      expect(printed).toMatch(/=== setup: bubblewrap installed \(\/usr\/bin\/bwrap\)/);
      expect(printed).toMatch(/=== setup: chromium found/);
      expect(outcome.status).toBe(0);
    });

    it("without root, names what is missing, why it cannot install it and the install line", () => {
      const outcome = inOverlay(
        "rm -f /usr/bin/chromium /usr/bin/bwrap && rm -rf /usr/lib/postgresql",
        `setpriv --reuid=65534 --regid=65534 --clear-groups node ${setupScript} test`,
      );
      const printed = `${outcome.stdout}${outcome.stderr}`;
      for (const name of ["chromium", "bubblewrap", "postgresql"]) {
        expect(printed).toContain(`=== setup: ${name} is missing`);
      }
      expect(printed).toContain(
        "cannot install it here (not root); as root, run: apt-get install -y chromium bubblewrap postgresql",
      );
      expect(outcome.status).toBe(1);
    });

    it("does not claim success when apt-get leaves the program missing", () => {
      // dpkg still lists chromium, so apt-get has nothing to do, yet the program is gone.
      const outcome = inOverlay("rm -f /usr/bin/chromium", `node ${setupScript} demo`);
      const printed = `${outcome.stdout}${outcome.stderr}`;
      expect(printed).toContain("=== setup: still missing after apt-get: chromium");
      expect(outcome.status).toBe(1);
    });
  },
);

describe("setup-system on this machine", () => {
  it("finds what the test command needs, or explains it (never silent)", () => {
    const outcome = spawnSync(process.execPath, [setupScript, "test"], { encoding: "utf8" });
    for (const name of ["chromium", "bubblewrap", "postgresql"]) {
      expect(outcome.stdout).toMatch(new RegExp(`=== setup: ${name} (found|installed|is missing)`));
    }
    expect(outcome.status === 0 || outcome.stdout.includes("as root, run:")).toBe(true);
  });

  it("refuses an unknown purpose with a usage line", () => {
    const outcome = spawnSync(process.execPath, [setupScript, "deploy"], { encoding: "utf8" });
    expect(outcome.status).toBe(2);
    expect(outcome.stderr).toContain("usage: node scripts/setup-system.mjs demo|test");
  });
});
