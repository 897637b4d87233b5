import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { expect, it } from "vitest";

// A host process that has launched Chromium (a preview session and a renderer's page) must still
// stop on SIGTERM the way it would without them: playwright-core's own SIGTERM handler used to
// close the browsers and swallow the signal, leaving the process running.

const DIST = new URL("../../dist/node/index.js", import.meta.url).href;

/** Command lines of the processes carrying `marker` (the child's Chromium and its helpers). */
function processesWith(marker: string): string[] {
  return spawnSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((line) => line.includes(marker));
}

it("SIGTERM still stops a host that launched the preview's and the renderer's Chromium; no Chromium of it remains", async () => {
  const marker = `--agentool-sigterm-check=${process.pid}-${Date.now()}`;
  const script = `
    const { createChromiumPreviewTool, createChromiumRenderer } = await import(${JSON.stringify(DIST)});
    const launchOptions = { args: [${JSON.stringify(marker)}] };
    const preview = createChromiumPreviewTool({ read: async () => "<p>hi</p>", launchOptions });
    const opened = await preview.run({ op: "open", path: "a.html" });
    const renderer = createChromiumRenderer({ launchOptions });
    const body = new TextEncoder().encode("<title>Rendered</title><p>x</p>");
    const page = { url: "http://example.test/", status: 200, headers: { "content-type": "text/html" }, body };
    const rendered = await renderer.render("http://example.test/", new AbortController().signal, {
      fetch: async () => page,
      document: page,
    });
    console.log(opened.success && rendered.html.includes("Rendered") ? "ready" : JSON.stringify(opened));
    setInterval(() => {}, 1_000); // a host that runs until it is told to stop
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const [first] = await once(child.stdout, "data");
    expect(String(first).trim()).toBe("ready");
    expect(processesWith(marker).length).toBeGreaterThan(0);

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const stopped = await Promise.race([
      exited.then(([code, signal]) => ({ code, signal })),
      new Promise((resolve) => setTimeout(() => resolve("still running after 5 s"), 5_000)),
    ]);
    expect(stopped).toEqual({ code: null, signal: "SIGTERM" });

    // Chromium notices its pipe closing and exits on its own.
    const deadline = Date.now() + 5_000;
    while (processesWith(marker).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesWith(marker)).toEqual([]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});
