// startXvfbDisplay / connectX11Display on real Xvfb: nothing survives close() — not Xvfb, not the
// app, not a child the app started in its group, not xterm's shell — nor the host process exiting
// without close(). Checked with pgrep, not with the package's own bookkeeping.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ATSPI_MISSING, processesInGroup, startGtkApp, X11_MISSING } from "../test-support/x11.js";
import { connectX11Display } from "./x11-display.js";
import { startXvfbDisplay, type XvfbDisplay } from "./xvfb-display.js";

const opened: XvfbDisplay[] = [];
afterEach(async () => {
  for (const display of opened.splice(0)) await display.close();
});

function readReport(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

function pgrep(pattern: string): string[] {
  const result = spawnSync("pgrep", ["-a", "-f", pattern], { encoding: "utf8" });
  return (result.stdout ?? "").split("\n").filter((line) => line.trim().length > 0);
}

describe.skipIf(X11_MISSING !== undefined)("Xvfb displays", { timeout: 60_000 }, () => {
  it("starts on a free display, is reachable by connectX11Display, and close() leaves nothing", async () => {
    const first = await startXvfbDisplay({
      width: 640,
      height: 480,
      app: { command: "sh", args: ["-c", "sleep 6061 & exec sleep 6062"], waitForWindow: false },
    });
    opened.push(first);
    const second = await startXvfbDisplay({ width: 320, height: 200 });
    opened.push(second);
    expect(first.name).not.toBe(second.name);
    const connected = await connectX11Display({
      display: first.name,
      authorityFile: first.authorityFile,
    });
    expect([connected.width, connected.height]).toEqual([640, 480]);
    expect(processesInGroup(first.serverPid).some((line) => line.includes("Xvfb"))).toBe(true);
    expect(pgrep("sleep 606[12]").length).toBe(2);

    await first.close();
    await second.close();
    await first.close(); // twice is fine
    expect(processesInGroup(first.serverPid)).toEqual([]);
    expect(processesInGroup(first.appPid)).toEqual([]);
    expect(processesInGroup(second.serverPid)).toEqual([]);
    expect(pgrep("sleep 606[12]")).toEqual([]);
    await expect(
      connectX11Display({ display: first.name, authorityFile: first.authorityFile }),
    ).rejects.toThrow(/cannot reach/);
  });

  it("lets in only clients with its cookie, which is private and removed by close()", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "agentool-gui-test-"));
    const emptyHome = join(scratch, "home");
    mkdirSync(emptyHome);
    const report = join(scratch, "app-report");
    const display = await startXvfbDisplay({
      width: 320,
      height: 240,
      app: {
        command: "sh",
        args: [
          "-c",
          'xprop -root _NET_NOTHING > "$0" 2>&1; echo "exit $?" >> "$0"; exec sleep 6091',
          report,
        ],
        waitForWindow: false,
      },
    });
    opened.push(display);
    const file = display.authorityFile ?? "";
    expect(file).not.toBe("");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    // An empty HOME: Xlib finds no ~/.Xauthority, as a stranger on this machine would.
    const stranger = { PATH: process.env.PATH ?? "", DISPLAY: display.name, HOME: emptyHome };
    const refused = spawnSync("xprop", ["-root", "_NET_NOTHING"], {
      encoding: "utf8",
      env: stranger,
    });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/unable to open display|Authorization required/);
    const allowed = spawnSync("xprop", ["-root", "_NET_NOTHING"], {
      encoding: "utf8",
      env: { ...stranger, XAUTHORITY: file },
    });
    expect(allowed.status, allowed.stderr).toBe(0);
    // The tool's own client and the launched app hold the cookie.
    for (let tries = 0; tries < 100 && !readReport(report).includes("exit"); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(readReport(report)).toMatch(/exit 0\s*$/);
    await expect(
      connectX11Display({ display: display.name, authorityFile: file }),
    ).resolves.toMatchObject({ width: 320, height: 240 });
    await expect(connectX11Display({ display: display.name })).rejects.toThrow(/cannot reach/);
    await display.close();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(dirname(file))).toBe(false);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("xterm and the shell it runs are gone after close()", async () => {
    const display = await startXvfbDisplay({
      width: 640,
      height: 400,
      app: { command: "xterm", args: ["-e", "sh", "-c", "sleep 6081; true"] },
    });
    opened.push(display);
    expect(pgrep("^sleep 6081").length).toBe(1); // xterm and its shell also name it
    await display.close();
    // The shell runs in xterm's own session (a new process group); it goes with the terminal.
    for (let tries = 0; tries < 40 && pgrep("sleep 6081").length > 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pgrep("sleep 6081")).toEqual([]);
    expect(processesInGroup(display.serverPid)).toEqual([]);
    expect(processesInGroup(display.appPid)).toEqual([]);
  });

  it("a host that exits without close() takes Xvfb and the app with it", async () => {
    const script = fileURLToPath(
      new URL("../test-support/exit-without-close.mjs", import.meta.url),
    );
    const child = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 30_000 });
    expect(child.status, child.stderr).toBe(0);
    const { server, app, authority } = JSON.parse(child.stdout.trim()) as {
      server: number;
      app: number;
      authority: string;
    };
    expect(authority).toMatch(/Xauthority$/);
    expect(existsSync(dirname(authority))).toBe(false); // the exit hook removed the cookie
    // SIGKILL was sent on the way out; the kernel may take a moment to finish them.
    for (let tries = 0; tries < 40; tries += 1) {
      if ([...processesInGroup(server), ...processesInGroup(app)].length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(processesInGroup(server)).toEqual([]);
    expect(processesInGroup(app)).toEqual([]);
    expect(pgrep("sleep 607[12]")).toEqual([]);
  });

  it.skipIf(ATSPI_MISSING !== undefined)(
    "with accessibility, a host that exits without close() takes the bus and AT-SPI with it",
    async () => {
      const script = fileURLToPath(
        new URL("../test-support/exit-without-close.mjs", import.meta.url),
      );
      const child = spawnSync(process.execPath, [script, "accessibility"], {
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(child.status, child.stderr).toBe(0);
      const { server, bus, authority } = JSON.parse(child.stdout.trim()) as {
        server: number;
        bus: number;
        authority: string;
      };
      expect(bus).toBeGreaterThan(0);
      expect(existsSync(dirname(authority))).toBe(false);
      for (let tries = 0; tries < 40; tries += 1) {
        if ([...processesInGroup(server), ...processesInGroup(bus)].length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(processesInGroup(bus)).toEqual([]);
      expect(processesInGroup(server)).toEqual([]);
    },
  );

  it.skipIf(ATSPI_MISSING !== undefined)(
    "with accessibility: the session bus and AT-SPI's processes run in one group that close() stops, their sockets in the private folder",
    async () => {
      const display = await startGtkApp(640, 400);
      opened.push(display);
      const folder = dirname(display.authorityFile ?? "");
      expect(display.sessionBusAddress?.startsWith(`unix:path=${folder}/`)).toBe(true);
      const group = processesInGroup(display.busPid).join("\n");
      expect(group).toMatch(/dbus-daemon --session/);
      expect(group).toMatch(/at-spi-bus-launcher/);
      expect(group).toMatch(
        /dbus-daemon --config-file=\/usr\/share\/defaults\/at-spi2\/accessibility.conf/,
      );
      expect(group).toMatch(/at-spi2-registryd/);
      // The app opens its own socket on the first read; it and the accessibility bus's are in the
      // private folder, not under HOME.
      const window = await display.accessibility?.readWindow(new AbortController().signal);
      expect(window?.title).toBe("agentool-gtk: ready");
      const appSocket = `at-spi2-socket-${display.appPid}`;
      expect(existsSync(join(folder, appSocket))).toBe(true);
      expect(existsSync(join(homedir(), ".cache", appSocket))).toBe(false);
      expect(existsSync(join(folder, "at-spi"))).toBe(true);

      await display.close();
      expect(processesInGroup(display.busPid)).toEqual([]);
      expect(processesInGroup(display.appPid)).toEqual([]);
      expect(processesInGroup(display.serverPid)).toEqual([]);
      expect(existsSync(folder)).toBe(false);
    },
  );

  it("refuses bad sizes, a missing app and a missing display with messages that say what to do", async () => {
    await expect(startXvfbDisplay({ width: 10, height: 480 })).rejects.toThrow(
      /width must be an integer from 64 to 8192/,
    );
    await expect(
      startXvfbDisplay({ width: 320, height: 240, app: { command: "agentool-no-such-app" } }),
    ).rejects.toThrow(/cannot launch agentool-no-such-app/);
    expect(pgrep("Xvfb -displayfd 3 -screen 0 320x240x24")).toEqual([]);
    await expect(connectX11Display({ display: "; rm -rf /" })).rejects.toThrow(
      /is not an X display name/,
    );
  });
});
