import { type ChildProcess, spawn } from "node:child_process";
import { errorMessage, fail, ok, type ToolResult } from "@agentool/contract";
import { arrangeOutput } from "./arrange-output.js";
import { type StopReason, startFailure, stoppedFailure } from "./command-failures.js";
import { CommandOutputCollector } from "./command-output-collector.js";
import type { OutputCapture } from "./output-capture.js";
import { ProcessGroup } from "./process-group.js";
import type { RunCommandToolData } from "./run-command-data.js";
import type { RunCommandSettings } from "./run-command-options.js";

/** How long after SIGKILL a stopped command's call settles even without an exit event: 1 s. */
const HARD_SETTLE_MS = 1_000;

/** How often the captured output's size is checked against the cap: 250 ms. */
const SIZE_CHECK_MS = 250;

/** One command to start, as {@link runChild} takes it. */
export interface ChildPlan {
  /** What is spawned (the program, or `bwrap` around it) and its arguments. */
  readonly file: string;
  readonly args: string[];
  /** The argv the model asked for (reported back). */
  readonly argv: string[];
  /** argv[0] as sent (named in messages). */
  readonly executable: string;
  readonly cwdAbsolute: string;
  /** The working directory as the model reads it. */
  readonly cwdDisplay: string;
  readonly environment: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

type Settle = (result: ToolResult<RunCommandToolData>) => void;

/**
 * Runs one command to its end: spawned without a shell in its own process group, stdin closed,
 * output into `capture`; stopped with its whole group (SIGTERM, SIGKILL after the grace period)
 * on timeout, on abort, or when it writes more than the cap. Background jobs it leaves running
 * are stopped too. Never rejects.
 *
 * @param capture - where the output goes
 * @param plan - what to run, where, for how long
 * @param settings - the tool's limits
 * @returns the result envelope
 */
export function runChild(
  capture: OutputCapture,
  plan: ChildPlan,
  settings: RunCommandSettings,
): Promise<ToolResult<RunCommandToolData>> {
  return new Promise((settle) => new ChildRun(capture, plan, settings, settle).start());
}

/** The state of one running command, from spawn to its settled result. */
class ChildRun {
  private readonly stdout: CommandOutputCollector;
  private readonly stderr: CommandOutputCollector;
  private child: ChildProcess | undefined;
  private group: ProcessGroup | undefined;
  private started = 0;
  private stoppedBy: StopReason | undefined;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private watcher: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private hardTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.stop("abort");

  constructor(
    private readonly capture: OutputCapture,
    private readonly plan: ChildPlan,
    private readonly settings: RunCommandSettings,
    private readonly settle: Settle,
  ) {
    const { maxHeadLines, maxTailLines, maxLineCharacters } = settings;
    this.stdout = new CommandOutputCollector(maxHeadLines, maxTailLines, maxLineCharacters);
    this.stderr = new CommandOutputCollector(maxHeadLines, maxTailLines, maxLineCharacters);
  }

  start(): void {
    const { plan, capture } = this;
    this.started = Date.now();
    let child: ChildProcess;
    try {
      child = spawn(plan.file, plan.args, {
        cwd: plan.cwdAbsolute,
        env: plan.environment,
        shell: false,
        detached: true,
        stdio: ["ignore", capture.stdio[0], capture.stdio[1]],
        windowsHide: true,
      });
    } catch (error) {
      this.settle(
        fail("INVALID_INPUT", `${plan.executable} could not be started: ${errorMessage(error)}.`, {
          hint: "Check the command and its arguments.",
        }),
      );
      return;
    }
    this.child = child;
    this.group = new ProcessGroup(child);
    capture.attach(child, this.stdout, this.stderr);
    this.timer = setTimeout(() => this.stop("timeout"), plan.timeoutMs);
    this.watcher = setInterval(() => {
      void capture.size().then((size) => {
        if (size > this.settings.maxCapturedBytes) this.stop("output");
      });
    }, SIZE_CHECK_MS);
    plan.signal.addEventListener("abort", this.onAbort, { once: true });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (this.settled || child.pid !== undefined) return;
      this.cleanUp();
      this.settle(startFailure(plan.executable, error));
    });
    child.on("exit", (code, exitSignal) => {
      void this.finish(code, exitSignal);
    });
  }

  private signalGroup(name: NodeJS.Signals): boolean {
    return this.group?.signal(name) ?? false;
  }

  private stop(reason: StopReason): void {
    if (this.stoppedBy !== undefined || this.settled) return;
    this.stoppedBy = reason;
    const { killGraceMs } = this.settings;
    this.signalGroup("SIGTERM");
    this.graceTimer = setTimeout(() => this.signalGroup("SIGKILL"), killGraceMs);
    // The call settles even if no exit is ever seen (a process stuck in the kernel, a handle
    // held by a grandchild): the exit event or this timer, whichever comes first.
    this.hardTimer = setTimeout(() => {
      this.signalGroup("SIGKILL");
      this.child?.stdout?.destroy();
      this.child?.stderr?.destroy();
      void this.finish(null, "SIGKILL");
    }, killGraceMs + HARD_SETTLE_MS);
    this.hardTimer.unref();
  }

  private cleanUp(): void {
    this.settled = true;
    clearTimeout(this.timer);
    clearInterval(this.watcher);
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    if (this.hardTimer !== undefined) clearTimeout(this.hardTimer);
    this.plan.signal.removeEventListener("abort", this.onAbort);
  }

  private async finish(code: number | null, exitSignal: NodeJS.Signals | null): Promise<void> {
    if (this.settled) return;
    const { plan, settings } = this;
    const reason = this.stoppedBy;
    this.cleanUp();
    // Whatever the command left running in its group (background jobs) is stopped too.
    const leftBehind = reason === undefined && (this.group?.alive() ?? false);
    if (reason !== undefined) this.signalGroup("SIGKILL");
    else if (leftBehind) {
      this.signalGroup("SIGTERM");
      setTimeout(() => this.signalGroup("SIGKILL"), settings.killGraceMs).unref();
    }
    const durationMs = Date.now() - this.started;
    let streamsComplete: boolean;
    try {
      streamsComplete = await this.capture.drain(this.stdout, this.stderr);
    } catch (error) {
      this.settle(
        fail(
          "INTERNAL",
          `The output of ${plan.executable} could not be read back: ${errorMessage(error)}.`,
        ),
      );
      return;
    }
    const { stdout, stderr } = arrangeOutput(
      this.stdout,
      this.stderr,
      settings.maxOutputCharacters,
    );
    if (reason !== undefined) {
      this.settle(
        stoppedFailure(reason, {
          executable: plan.executable,
          timeoutMs: plan.timeoutMs,
          maxTimeoutMs: settings.maxTimeoutMs,
          maxCapturedBytes: settings.maxCapturedBytes,
          stdout,
          stderr,
        }),
      );
      return;
    }
    this.settle(
      ok({
        command: plan.argv,
        cwd: plan.cwdDisplay,
        exit_code: code,
        signal: exitSignal,
        duration_ms: durationMs,
        stdout,
        stderr,
        truncated: stdout.truncated || stderr.truncated,
        stopped_background: leftBehind || !streamsComplete,
        sandbox: settings.sandboxed ? "bubblewrap" : "none",
      }),
    );
  }
}
