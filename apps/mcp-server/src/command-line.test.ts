import { describe, expect, it } from "vitest";
import { FLAGS, formatHelp, parseCommandLine } from "./command-line.js";
import { FAMILY_NAMES } from "./family-names.js";
import { runCli, temporaryDirectory } from "./test-support/spawn-server.js";
import { usageError } from "./test-support/tool-results.js";

describe("parseCommandLine", () => {
  it("defaults to every family, read-only, stdio", () => {
    const parsed = parseCommandLine(["--root", "."]);
    expect(parsed).toEqual({
      action: "serve",
      options: {
        root: ".",
        families: FAMILY_NAMES.filter(
          (name) =>
            name !== "memory" &&
            name !== "skills" &&
            name !== "code" &&
            name !== "office" &&
            name !== "design" &&
            name !== "preview" &&
            name !== "browser" &&
            name !== "gui",
        ),
        mode: "read-only",
        allowCommands: [],
        searxng: undefined,
        allowHosts: [],
        knowledgeDir: undefined,
        fixedRoot: false,
        outputSchemas: false,
        http: undefined,
      },
    });
  });

  it("reads every flag, repeated ones in order", () => {
    const parsed = parseCommandLine([
      "--root=/srv/project",
      "--families",
      "web,fs",
      "--families=core",
      "--mode",
      "read-write",
      "--allow-command",
      "git",
      "--allow-command",
      "npm",
      "--searxng",
      "http://127.0.0.1:8888",
      "--allow-host",
      "127.0.0.1",
      "--allow-host",
      "*.corp.example",
      "--families",
      "knowledge",
      "--knowledge-dir",
      "./sources",
      "--http",
      "0",
      "--host",
      "localhost",
      "--allow-origin",
      "https://app.example/",
      "--token",
      "secret",
      "--fixed-root",
      "--output-schemas",
    ]);
    expect(parsed).toEqual({
      action: "serve",
      options: {
        root: "/srv/project",
        families: ["core", "fs", "web", "knowledge"],
        mode: "read-write",
        allowCommands: ["git", "npm"],
        searxng: "http://127.0.0.1:8888",
        allowHosts: ["127.0.0.1", "*.corp.example"],
        knowledgeDir: "./sources",
        fixedRoot: true,
        outputSchemas: true,
        http: {
          port: 0,
          host: "localhost",
          allowOrigins: ["https://app.example"],
          token: "secret",
        },
      },
    });
  });

  it("answers --help and --version (with their short forms) before checking the rest", () => {
    expect(parseCommandLine(["--help"])).toEqual({ action: "help" });
    expect(parseCommandLine(["-h", "--mode", "nonsense"])).toEqual({ action: "help" });
    expect(parseCommandLine(["-v"])).toEqual({ action: "version" });
  });

  it("suggests the closest flag for a typo", () => {
    expect(usageError(["--famlies", "fs"])).toBe(
      "Unknown flag --famlies. Did you mean --families?",
    );
    expect(usageError(["--allow-commands", "git"])).toContain("Did you mean --allow-command?");
    expect(usageError(["--fixed_root"])).toContain("Did you mean --fixed-root?");
    expect(usageError(["--zzz"])).toBe("Unknown flag --zzz.");
  });

  it("names the flag and the fix for missing and bad values", () => {
    expect(usageError(["--root"])).toBe("--root needs a value: --root <dir>.");
    expect(usageError(["--root", "--mode", "read-write"])).toBe(
      "--root needs a value: --root <dir> (got the flag --mode instead).",
    );
    expect(usageError(["--mode", "read-wrte"])).toBe(
      '--mode must be read-only or read-write, not "read-wrte". Did you mean read-write?',
    );
    expect(usageError(["--families", "fs,gitt"])).toContain(
      'unknown family "gitt". Did you mean git?',
    );
    expect(usageError(["--families", ","])).toContain("--families needs at least one family");
    expect(usageError(["--http", "http"])).toContain("--http needs a port number from 0 to 65535");
    expect(usageError(["--http", "70000"])).toContain("--http needs a port number");
    expect(usageError(["--searxng", "searx.local"])).toContain(
      "--searxng needs the URL of a SearXNG instance",
    );
    expect(usageError(["--http", "0", "--allow-origin", "https://a.example/path"])).toContain(
      "--allow-origin needs a bare origin (scheme, host and port, no path), e.g. https://a.example",
    );
    expect(usageError(["--fixed-root=yes"])).toContain("--fixed-root takes no value");
    expect(usageError(["--mode", "read-only", "--mode", "read-write"])).toContain(
      "--mode was given twice",
    );
    expect(usageError(["."])).toContain('Unexpected argument ".": agentool-mcp takes flags only');
    expect(usageError(["--knowledge-dir", "docs/../../up"])).toBe(
      '--knowledge-dir "docs/../../up" climbs above the project root. Give a folder inside the root, relative to it (e.g. --knowledge-dir sources).',
    );
    expect(usageError(["--knowledge-dir", "~/notes"])).toContain("points into a home directory");
  });

  it("refuses flags that need another flag, saying which", () => {
    expect(usageError(["--allow-command", "git"])).toBe(
      "--allow-command mounts run_command, which needs --mode read-write: add --mode read-write or drop --allow-command.",
    );
    expect(
      usageError(["--mode", "read-write", "--families", "core", "--allow-command", "git"]),
    ).toContain("add fs to --families");
    expect(usageError(["--families", "fs", "--searxng", "http://127.0.0.1:8888"])).toContain(
      "--searxng configures the web family",
    );
    expect(usageError(["--families", "fs", "--allow-host", "127.0.0.1"])).toBe(
      "--allow-host configures the web and browser families: add web or browser to --families or drop --allow-host.",
    );
    expect(usageError(["--families", "fs", "--knowledge-dir", "docs"])).toBe(
      "--knowledge-dir configures the knowledge family: add knowledge to --families or drop --knowledge-dir.",
    );
    expect(usageError(["--fixed-root"])).toContain("add --root <dir>");
    expect(usageError(["--token", "x"])).toBe(
      "--token applies to the HTTP server: add --http <port> or drop --token.",
    );
    expect(usageError(["--host", "0.0.0.0"])).toContain("add --http <port>");
  });

  it("mounts browser only when named, in read-write mode; --allow-host opens hosts to it too", () => {
    const serve = (argv: string[]) => {
      const parsed = parseCommandLine(argv);
      if (parsed.action !== "serve") throw new Error(`${argv.join(" ")} did not serve`);
      return parsed.options;
    };
    expect(serve(["--mode", "read-write"]).families).not.toContain("browser");
    expect(
      serve(["--families", "browser", "--mode", "read-write", "--allow-host", "127.0.0.1:8080"]),
    ).toMatchObject({ families: ["browser"], allowHosts: ["127.0.0.1:8080"] });
    expect(serve(["--families", "web,browser", "--mode", "read-write"]).families).toEqual([
      "web",
      "browser",
    ]);
    expect(usageError(["--families", "browser"])).toBe(
      "--families browser mounts a browser that acts on the live web (fills forms, clicks, posts), which needs --mode read-write: add --mode read-write or drop browser from --families.",
    );
    expect(usageError(["--families", "core,browser", "--mode", "read-only"])).toContain(
      "needs --mode read-write",
    );
    expect(usageError(["--families", "browsr"])).toContain("Did you mean browser?");
  });

  it("mounts code only when named, in either mode", () => {
    const serve = (argv: string[]) => {
      const parsed = parseCommandLine(argv);
      if (parsed.action !== "serve") throw new Error(`${argv.join(" ")} did not serve`);
      return parsed.options;
    };
    expect(serve(["--root", "."]).families).not.toContain("code");
    expect(serve(["--root", ".", "--mode", "read-write"]).families).not.toContain("code");
    expect(serve(["--root", ".", "--families", "code"])).toMatchObject({
      families: ["code"],
      mode: "read-only",
    });
    expect(
      serve(["--root", ".", "--families", "fs,git,code", "--mode", "read-write"]),
    ).toMatchObject({ families: ["fs", "git", "code"], mode: "read-write" });
    expect(usageError(["--families", "cod"])).toContain("Did you mean code?");
  });

  it("mounts gui only when named, in read-write mode, on DISPLAY or its own --gui-xvfb with --gui-app", () => {
    const serve = (argv: string[]) => {
      const parsed = parseCommandLine(argv);
      if (parsed.action !== "serve") throw new Error(`${argv.join(" ")} did not serve`);
      return parsed.options;
    };
    expect(serve(["--mode", "read-write"]).families).not.toContain("gui");
    const own = serve([
      ...["--families", "gui", "--mode", "read-write", "--gui-xvfb", "1280x800"],
      ...["--gui-app", " xterm  -geometry 100x30 "],
    ]);
    expect(own).toMatchObject({
      families: ["gui"],
      guiXvfb: { width: 1280, height: 800, app: ["xterm", "-geometry", "100x30"] },
    });
    expect(serve(["--families", "gui", "--mode", "read-write"]).guiXvfb).toBeUndefined();
    expect(usageError(["--families", "gui"])).toBe(
      "--families gui mounts computer, which drives a desktop with the mouse and keyboard (it can do anything its user can), which needs --mode read-write: add --mode read-write or drop gui from --families.",
    );
    expect(usageError(["--families", "gui", "--mode", "read-write", "--gui-app", "xterm"])).toBe(
      "--gui-app launches a program into the display the server starts: add --gui-xvfb <width>x<height> (e.g. 1280x800) or drop --gui-app.",
    );
    for (const size of ["1280", "10x10", "1280x800x24", "wide"]) {
      expect(
        usageError(["--families", "gui", "--mode", "read-write", "--gui-xvfb", size]),
      ).toContain("--gui-xvfb needs <width>x<height> in pixels");
    }
    expect(usageError(["--families", "fs", "--gui-xvfb", "800x600"])).toBe(
      "--gui-xvfb configures the gui family: add gui to --families or drop --gui-xvfb.",
    );
  });

  it("mounts design only when named, in either mode; --figma-api-url needs it and a bare origin", () => {
    const serve = (argv: string[]) => {
      const parsed = parseCommandLine(argv);
      if (parsed.action !== "serve") throw new Error(`${argv.join(" ")} did not serve`);
      return parsed.options;
    };
    expect(serve(["--root", "."]).families).not.toContain("design");
    expect(serve(["--root", ".", "--families", "design"])).toMatchObject({
      families: ["design"],
      mode: "read-only",
    });
    expect(
      serve(["--families", "design", "--figma-api-url", "http://127.0.0.1:8123/"]).figmaApiUrl,
    ).toBe("http://127.0.0.1:8123");
    expect(
      usageError(["--families", "design", "--figma-api-url", "https://x.example/v1"]),
    ).toContain("--figma-api-url needs the origin of a Figma REST API");
    expect(usageError(["--families", "fs", "--figma-api-url", "https://api.figma.com"])).toBe(
      "--figma-api-url configures the design family: add design to --families or drop --figma-api-url.",
    );
  });

  it("mounts office only when named (documents is another name for it), in either mode", () => {
    const serve = (argv: string[]) => {
      const parsed = parseCommandLine(argv);
      if (parsed.action !== "serve") throw new Error(`${argv.join(" ")} did not serve`);
      return parsed.options;
    };
    expect(serve(["--root", "."]).families).not.toContain("office");
    expect(serve(["--root", ".", "--mode", "read-write"]).families).not.toContain("office");
    expect(serve(["--root", ".", "--families", "office"])).toMatchObject({
      families: ["office"],
      mode: "read-only",
    });
    expect(serve(["--root", ".", "--families", "Documents,fs"]).families).toEqual(["fs", "office"]);
    expect(serve(["--root", ".", "--families", "office,documents"]).families).toEqual(["office"]);
    expect(serve(["--root", ".", "--families", "fs,office", "--mode", "read-write"])).toMatchObject(
      { families: ["fs", "office"], mode: "read-write" },
    );
    expect(usageError(["--families", "ofice"])).toContain("Did you mean office?");
    expect(usageError(["--families", "constructor"])).toContain('unknown family "constructor"');
  });

  it("lists every flag in the help text", () => {
    const help = formatHelp("9.9.9");
    for (const flag of FLAGS) {
      expect(help).toContain(`--${flag.name}`);
      expect(help).toContain(flag.description);
    }
    expect(help).toContain("AGENTOOL_MCP_TOKEN");
    expect(help).toContain("XDG_CACHE_HOME");
    expect(help).toContain("FIGMA_API_KEY");
    expect(help).toContain("DISPLAY");
    expect(help).toContain(
      "core,fs,git,code,office,design,web,knowledge,memory,skills,interact,preview,browser,gui",
    );
    expect(help).toContain("documents is another name for office");
  });
});

describe("the agentool-mcp bin", () => {
  it("prints --help on stdout with every flag and exits 0", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    for (const flag of FLAGS) expect(run.stdout).toContain(`--${flag.name}`);
    expect(run.stdout).toContain("Usage: agentool-mcp --root <dir>");
  });

  it("prints its version", async () => {
    const run = await runCli(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("exits 2 on a bad flag, with a suggestion on stderr and nothing on stdout", async () => {
    const run = await runCli(["--root", ".", "--mdoe", "read-write"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("agentool-mcp: Unknown flag --mdoe. Did you mean --mode?");
    expect(run.stderr).toContain("Run agentool-mcp --help for every flag.");
  });

  it("exits 2 when --root is missing or not a directory", async () => {
    const directory = temporaryDirectory({ "file.txt": "x" });
    try {
      const missing = await runCli(["--root", `${directory.path}/absent`]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        `--root ${directory.path}/absent does not exist: pass an existing directory`,
      );
      const file = await runCli(["--root", `${directory.path}/file.txt`]);
      expect(file.code).toBe(2);
      expect(file.stderr).toContain(`--root ${directory.path}/file.txt is not a directory`);
    } finally {
      directory.cleanup();
    }
  });
});
