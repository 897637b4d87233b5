import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A PostgreSQL server started for a test run (Debian's `postgresql` package). */
export interface PostgresServer {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  connectionString: string;
  /** The port it listens on (127.0.0.1 only). */
  port: number;
  /** Stops the server and removes its data folder. */
  stop(): void;
}

/** The folder of `initdb` and `pg_ctl`: Debian's newest `/usr/lib/postgresql/<version>/bin`. */
export function findPostgresBinaries(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) => existsSync(join(base, name, "bin", "pg_ctl")))
    .sort((left, right) => Number(right) - Number(left));
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts a real PostgreSQL server on 127.0.0.1 in a temporary data folder, as the `postgres`
 * user when this runs as root (the server refuses to run as root), with the commands
 * CONVENTIONS.md gives: `initdb -D <dir> -A trust -U postgres`, then
 * `pg_ctl -D <dir> -o "-k <dir> -p <port> -h 127.0.0.1" start`.
 *
 * @returns the running server
 * @throws Error when PostgreSQL is not installed (`apt-get install -y postgresql`; the test
 *   command's setup step installs it) or does not start
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const binaries = findPostgresBinaries();
  if (binaries === undefined) {
    throw new Error(
      "PostgreSQL is not installed: run `apt-get install -y postgresql` (pnpm test's setup step does it when it runs as root).",
    );
  }
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const folder = mkdtempSync(join(tmpdir(), "agentool-postgres-"));
  const data = join(folder, "data");
  const asServer = (command: string, args: string[]) =>
    root
      ? (["runuser", ["-u", "postgres", "--", command, ...args]] as const)
      : ([command, args] as const);
  if (root) {
    const ids = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    const group = execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim();
    chownSync(folder, Number(ids), Number(group));
  }
  const [initCommand, initArgs] = asServer(join(binaries, "initdb"), [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "--no-sync",
  ]);
  execFileSync(initCommand, [...initArgs], { stdio: "pipe" });
  const port = await freePort();
  const log = join(folder, "server.log");
  const [startCommand, startArgs] = asServer(join(binaries, "pg_ctl"), [
    "-D",
    data,
    "-o",
    `-k ${folder} -p ${port} -h 127.0.0.1 -c fsync=off`,
    "-l",
    log,
    "-w",
    "start",
  ]);
  const started = spawnSync(startCommand, [...startArgs], { encoding: "utf8" });
  if (started.status !== 0) {
    const text = existsSync(log) ? readFileSync(log, "utf8") : "";
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`pg_ctl start failed: ${started.stderr}\n${text}`);
  }
  let stopped = false;
  return {
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      const [stopCommand, stopArgs] = asServer(join(binaries, "pg_ctl"), [
        "-D",
        data,
        "-m",
        "fast",
        "-w",
        "stop",
      ]);
      spawnSync(stopCommand, [...stopArgs], { stdio: "pipe" });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
