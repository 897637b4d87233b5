#!/usr/bin/env node
// The one set-up step of both README commands: finds the system packages the project uses and,
// when one is missing, installs it with Debian's apt-get (as root), saying what it installs — or,
// without root or apt-get, says why not and the line that installs it.
//
//   node scripts/setup-system.mjs demo    what `pnpm demo` needs (Chromium, bubblewrap, and for
//                                         its gui step Xvfb, xauth, xdotool, xwd and Tk)
//   node scripts/setup-system.mjs test    what `pnpm test` needs (+ PostgreSQL, man-pages, and the
//                                         office converters: pandoc, LibreOffice, python-docx, openpyxl;
//                                         and X11 for tools-gui: Xvfb, xauth, xdotool, xwd, xprop, xterm, Tk,
//                                         and AT-SPI: dbus-daemon, at-spi2-core, python3-gi, GTK 3)
//
// Exit code 0 when everything the purpose needs is there afterwards, 1 when something is still
// missing (the lines above say what and how to install it).
import { spawnSync } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A Debian package the project uses, how to tell it is there and what for.
 *
 * @typedef {object} SystemPackage
 * @property {string} name - the Debian package
 * @property {() => string | undefined} find - the installed program's path, or undefined
 * @property {string} usedBy - what needs it, shown to the user
 * @property {ReadonlyArray<"demo" | "test">} purposes - which README command needs it
 * @property {boolean} [recommends] - false: installed with `--no-install-recommends` (a package
 *   whose recommended packages the project does not use, e.g. LibreOffice's spell checker and
 *   AppArmor profile); absent or true: with them, as apt-get does by default
 */

/**
 * The first executable of `names` on the PATH or in the usual system folders.
 *
 * @param {string[]} names - program names
 * @returns {string | undefined} its path
 */
function findProgram(...names) {
  const folders = [
    ...(process.env.PATH ?? "").split(delimiter),
    "/usr/bin",
    "/bin",
    "/usr/local/bin",
  ];
  for (const name of names) {
    for (const folder of folders) {
      if (folder.length === 0) continue;
      const candidate = join(folder, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** @returns {string | undefined} the newest PostgreSQL server's `pg_ctl` from Debian's packages */
function findPostgres() {
  let versions = [];
  try {
    versions = readdirSync("/usr/lib/postgresql").sort(
      (first, second) => Number(second) - Number(first),
    );
  } catch {
    return undefined;
  }
  for (const version of versions) {
    const candidate = join("/usr/lib/postgresql", version, "bin", "pg_ctl");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this version
    }
  }
  return undefined;
}

/**
 * Debian's python3 when it can import tkinter (python3-tk puts `_tkinter` in the interpreter's
 * own lib-dynload folder, whose name changes with each Python version, so it is asked).
 *
 * @returns {string | undefined} `/usr/bin/python3`, or undefined
 */
function findTkinter() {
  const python = "/usr/bin/python3";
  const probe = spawnSync(python, ["-c", "import tkinter"], { stdio: "ignore", timeout: 10_000 });
  return probe.status === 0 ? python : undefined;
}

/**
 * Debian's python3 when GObject introspection (python3-gi) can load a typelib (a gir1.2-*
 * package); the typelib's package pulls in python3-gi's library, so both are asked at once.
 *
 * @param {string} namespace - the typelib, e.g. "Atspi"
 * @param {string} version - its version, e.g. "2.0"
 * @returns {string | undefined} `/usr/bin/python3`, or undefined
 */
function findPythonModule(namespace, version) {
  const python = "/usr/bin/python3";
  const code = `import gi; gi.require_version("${namespace}", "${version}"); from gi.repository import ${namespace}`;
  const probe = spawnSync(python, ["-c", code], { stdio: "ignore", timeout: 10_000 });
  return probe.status === 0 ? python : undefined;
}

/** @type {readonly SystemPackage[]} */
export const SYSTEM_PACKAGES = [
  {
    name: "chromium",
    find: () => findProgram("chromium"),
    usedBy: "tools-preview (headless Chromium) and web_fetch's renderer",
    purposes: ["demo", "test"],
  },
  {
    name: "bubblewrap",
    find: () => findProgram("bwrap"),
    usedBy: "run_command's sandbox (bwrap)",
    purposes: ["demo", "test"],
  },
  {
    name: "postgresql",
    find: findPostgres,
    usedBy: "the PostgresStore memory suite (a real PostgreSQL server on 127.0.0.1)",
    purposes: ["test"],
  },
  {
    name: "manpages",
    find: () => findFile("/usr/share/man/man7/signal.7.gz"),
    usedBy: "search_knowledge's real relevance set (the Linux man-pages)",
    purposes: ["test"],
  },
  {
    name: "manpages-dev",
    find: () => findFile("/usr/share/man/man2/open.2.gz"),
    usedBy: "search_knowledge's real relevance set (the Linux man-pages)",
    purposes: ["test"],
  },
  {
    name: "groff-base",
    find: () => findProgram("groff"),
    usedBy: "rendering the man-pages of search_knowledge's real relevance set",
    purposes: ["test"],
  },
  // tools-office: the fidelity corpus is real text converted by other people's tools (pandoc to
  // .docx/.odt/.epub/.pptx, LibreOffice headless to .pdf/.docx/.xlsx/.ods), pandoc is also a peer
  // the reader is measured beside, and write_document's output is read back by python-docx and
  // openpyxl. LibreOffice without its GUI and without recommends (no spell checker, Math, UNO
  // bridge or AppArmor). Measured here: 81 packages, 128 MB of archives, 505 MB installed (pandoc
  // alone 168 MB), 66 s with apt-get (tools-office's README, "Fidelity and speed, measured").
  {
    name: "pandoc",
    find: () => findProgram("pandoc"),
    usedBy:
      "tools-office's fidelity corpus and its pandoc peer (Markdown/RST → docx/odt/epub/pptx)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "libreoffice-writer-nogui",
    find: () => findFile("/usr/lib/libreoffice/program/libswlo.so"),
    usedBy: "tools-office's fidelity corpus and round trips (soffice --headless: docx/odt → pdf)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "libreoffice-calc-nogui",
    find: () => findFile("/usr/lib/libreoffice/program/libsclo.so"),
    usedBy: "tools-office's fidelity corpus (soffice --headless: csv → xlsx/ods)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "libreoffice-impress-nogui",
    find: () => findFile("/usr/lib/libreoffice/program/libslideshowlo.so"),
    usedBy: "tools-office's benchmark (soffice --headless: pptx → pdf, odp)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "python3-docx",
    find: () => findFile("/usr/lib/python3/dist-packages/docx/__init__.py"),
    usedBy: "tools-office's round trips (write_document's .docx read back by Debian's python3)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "python3-openpyxl",
    find: () => findFile("/usr/lib/python3/dist-packages/openpyxl/__init__.py"),
    usedBy: "tools-office's round trips (write_document's .xlsx read back by Debian's python3)",
    purposes: ["test"],
    recommends: false,
  },
  // tools-gui: the computer tool drives a real X11 display. Its tests start Xvfb (with a cookie
  // written by xauth), send input with xdotool, take screenshots with xwd, read window titles
  // with xprop (x11-utils), and drive a small Tk app (Debian's python3 with python3-tk) and
  // xterm. No recommends (no fonts or menus the tests do not use).
  {
    name: "xvfb",
    find: () => findProgram("Xvfb"),
    usedBy: "tools-gui's own display (Xvfb) and its tests",
    purposes: ["demo", "test"],
    recommends: false,
  },
  {
    name: "xauth",
    find: () => findProgram("xauth"),
    usedBy: "tools-gui's own display (its MIT-MAGIC-COOKIE-1, written with xauth)",
    purposes: ["demo", "test"],
    recommends: false,
  },
  {
    name: "xdotool",
    find: () => findProgram("xdotool"),
    usedBy: "tools-gui's computer tool (mouse and keyboard input over XTEST)",
    purposes: ["demo", "test"],
    recommends: false,
  },
  {
    name: "x11-apps",
    find: () => findProgram("xwd"),
    usedBy: "tools-gui's computer tool (screenshots with xwd)",
    purposes: ["demo", "test"],
    recommends: false,
  },
  {
    name: "x11-utils",
    find: () => findProgram("xprop"),
    usedBy: "tools-gui's tests (window titles with xprop, windows with xwininfo)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "xterm",
    find: () => findProgram("xterm"),
    usedBy: "tools-gui's tests (a real terminal app typed into under Xvfb)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "python3-tk",
    find: findTkinter,
    usedBy:
      "tools-gui's tests and the demo's gui step (small Tk apps run by Debian's /usr/bin/python3)",
    purposes: ["demo", "test"],
    recommends: false,
  },
  // tools-gui's read_window: AT-SPI on a private D-Bus session bus (dbus-daemon, at-spi2-core),
  // read by Debian's python3 with python3-gi and the Atspi typelib; tested on a GTK 3 app.
  {
    name: "dbus-daemon",
    find: () => findProgram("dbus-daemon"),
    usedBy: "tools-gui's accessibility option (a private D-Bus session bus per display)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "at-spi2-core",
    find: () => findFile("/usr/libexec/at-spi-bus-launcher"),
    usedBy: "tools-gui's accessibility option (the AT-SPI bus and registry)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "gir1.2-atspi-2.0",
    find: () => findPythonModule("Atspi", "2.0"),
    usedBy: "tools-gui's accessibility reader (Debian's python3 with python3-gi)",
    purposes: ["test"],
    recommends: false,
  },
  {
    name: "gir1.2-gtk-3.0",
    find: () => findPythonModule("Gtk", "3.0"),
    usedBy:
      "tools-gui's accessibility tests (a small GTK 3 app, which exposes its widgets over AT-SPI)",
    purposes: ["test"],
    recommends: false,
  },
  // tools-design: svg_read is tested on real SVG icons nobody here wrote (Adwaita's scalable set).
  {
    name: "adwaita-icon-theme",
    find: () => findFile("/usr/share/icons/Adwaita/scalable/places/folder-symbolic.svg"),
    usedBy: "tools-design's svg_read tests (real SVG icons)",
    purposes: ["test"],
    recommends: false,
  },
];

/**
 * A file's path when it exists.
 *
 * @param {string} path - the file
 * @returns {string | undefined} the path, or undefined
 */
function findFile(path) {
  try {
    accessSync(path, constants.R_OK);
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Why packages cannot be installed here, or undefined when they can (root with apt-get on Linux).
 *
 * @returns {string | undefined}
 */
function cannotInstall() {
  if (process.platform !== "linux") return "these are Debian packages and this is not Linux";
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return "not root";
  if (findProgram("apt-get") === undefined) return "no apt-get";
  return undefined;
}

/**
 * Runs apt-get with the given arguments, output shown, never asking a question.
 *
 * @param {string[]} args - apt-get's arguments
 * @returns {boolean} whether it succeeded
 */
function aptGet(args) {
  const environment = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  return spawnSync("apt-get", args, { stdio: "inherit", env: environment }).status === 0;
}

/**
 * Makes sure the system packages of one purpose are installed: found → said; missing → installed
 * with `apt-get install -y` (after `apt-get update` when the first try fails), or explained.
 *
 * @param {"demo" | "test"} purpose - which README command is being set up
 * @param {{ log?: (line: string) => void, packages?: readonly SystemPackage[] }} [options]
 * @returns {{ found: string[], installed: string[], missing: string[] }} the package names in each state afterwards
 * @example
 * const { missing } = ensureSystemPackages("demo");
 */
export function ensureSystemPackages(purpose, options = {}) {
  const log = options.log ?? ((line) => console.log(`=== setup: ${line}`));
  const needed = (options.packages ?? SYSTEM_PACKAGES).filter((entry) =>
    entry.purposes.includes(purpose),
  );
  const found = [];
  const absent = [];
  for (const entry of needed) {
    const path = entry.find();
    if (path === undefined) absent.push(entry);
    else {
      found.push(entry.name);
      log(`${entry.name} found (${path})`);
    }
  }
  if (absent.length === 0) return { found, installed: [], missing: [] };
  const names = absent.map((entry) => entry.name);
  // One apt-get line per way of installing: with recommended packages (apt-get's default), and
  // without them for the packages that say so.
  const groups = [
    absent.filter((entry) => entry.recommends !== false).map((entry) => entry.name),
    absent.filter((entry) => entry.recommends === false).map((entry) => entry.name),
  ];
  const commands = [
    groups[0].length > 0 ? ["install", "-y", ...groups[0]] : undefined,
    groups[1].length > 0 ? ["install", "-y", "--no-install-recommends", ...groups[1]] : undefined,
  ].filter((command) => command !== undefined);
  const line = commands.map((command) => `apt-get ${command.join(" ")}`).join(" && ");
  for (const entry of absent) log(`${entry.name} is missing — needed by ${entry.usedBy}`);
  const reason = cannotInstall();
  if (reason !== undefined) {
    log(`cannot install it here (${reason}); as root, run: ${line}`);
    return { found, installed: [], missing: names };
  }
  log(`installing with Debian's packages: ${line}`);
  if (!commands.every((command) => aptGet(command))) {
    log("apt-get install failed; running apt-get update first, then trying again");
    aptGet(["update"]);
    for (const command of commands) aptGet(command);
  }
  const installed = [];
  const missing = [];
  for (const entry of absent) {
    const path = entry.find();
    if (path === undefined) missing.push(entry.name);
    else {
      installed.push(entry.name);
      log(`${entry.name} installed (${path})`);
    }
  }
  if (missing.length > 0) {
    log(`still missing after apt-get: ${missing.join(", ")} (see apt-get's output above)`);
  }
  return { found, installed, missing };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const purpose = process.argv[2];
  if (purpose !== "demo" && purpose !== "test") {
    console.error("usage: node scripts/setup-system.mjs demo|test");
    process.exit(2);
  }
  const { missing } = ensureSystemPackages(purpose);
  process.exit(missing.length === 0 ? 0 : 1);
}
