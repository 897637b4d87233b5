import { spawn } from "node:child_process";
import { ToolFailureError } from "@agentool/contract";

/** Debian packages of the programs tools-gui runs, for the install hint. */
const PACKAGES: Readonly<Record<string, string>> = {
  Xvfb: "xvfb",
  xdotool: "xdotool",
  xwd: "x11-apps",
  xauth: "xauth",
};

/** What {@link runProgram} is given. */
export interface RunProgramOptions {
  /** The environment (already scrubbed by the caller). */
  environment: Record<string, string>;
  /** Stops the program (SIGKILL). */
  signal: AbortSignal;
  /** Milliseconds before the program is killed and the call fails with `TIMEOUT`. */
  timeoutMs: number;
  /** Written to the program's standard input, then closed. */
  input?: string;
  /** Cap on standard output; more fails with `TOO_LARGE`. */
  maxOutputBytes?: number;
}

/** What a finished program printed. */
export interface ProgramOutput {
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a program with an argv array (never a shell), a timeout, an output cap and the caller's
 * signal; resolves when it exits with status 0.
 *
 * @param program - the program's name (found on `environment.PATH`)
 * @param args - its arguments, passed as they are
 * @param options - environment, signal, timeout, standard input, output cap
 * @returns its standard output and error
 * @throws ToolFailureError: `DEPENDENCY_MISSING` (not installed), `TIMEOUT`, `ABORTED`, `TOO_LARGE`, `INTERNAL` (a failed exit, with its error output)
 */
export function runProgram(
  program: string,
  args: readonly string[],
  options: RunProgramOptions,
): Promise<ProgramOutput> {
  const maxOutputBytes = options.maxOutputBytes ?? 1_048_576;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new ToolFailureError("ABORTED", `${program} was not started: the call was aborted.`));
      return;
    }
    const child = spawn(program, args, {
      env: options.environment,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let failure: ToolFailureError | undefined;
    const stop = (error: ToolFailureError) => {
      failure ??= error;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () =>
        stop(
          new ToolFailureError("TIMEOUT", `${program} took longer than ${options.timeoutMs} ms.`, {
            retryable: true,
          }),
        ),
      options.timeoutMs,
    );
    const onAbort = () =>
      stop(new ToolFailureError("ABORTED", `${program} was stopped: the call was aborted.`));
    options.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout?.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxOutputBytes) {
        stop(
          new ToolFailureError(
            "TOO_LARGE",
            `${program} printed more than ${maxOutputBytes} bytes.`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 4_096) stderr += chunk.toString("utf8");
    });
    child.stdin?.on("error", () => {
      // The program closed its input early; its exit status tells what happened.
    });
    child.stdin?.end(options.input);
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      if (error.code === "ENOENT") {
        const name = PACKAGES[program] ?? program;
        reject(
          new ToolFailureError("DEPENDENCY_MISSING", `${program} is not installed.`, {
            hint: `Install it (Debian: apt-get install ${name}; or run node scripts/setup-system.mjs test).`,
          }),
        );
      } else
        reject(new ToolFailureError("INTERNAL", `${program} could not start: ${error.message}`));
    });
    child.on("close", (code, signalName) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      if (failure !== undefined) reject(failure);
      else if (code === 0) resolve({ stdout: Buffer.concat(chunks), stderr });
      else
        reject(
          new ToolFailureError(
            "INTERNAL",
            `${program} ${args[0] ?? ""} failed (${code === null ? `signal ${signalName}` : `exit ${code}`}): ${stderr.trim().slice(0, 500) || "no message"}`,
          ),
        );
    });
  });
}
