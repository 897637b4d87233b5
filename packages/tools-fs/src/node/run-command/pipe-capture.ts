import type { OutputCapture } from "./output-capture.js";
import { DEFAULT_OUTPUT_DRAIN_MS } from "./run-command-defaults.js";

/**
 * The fallback capture: the child's pipes, read as they come and drained after its exit for up
 * to {@link DEFAULT_OUTPUT_DRAIN_MS} (a background process may hold them open).
 *
 * @returns the capture
 */
export function openPipeCapture(): OutputCapture {
  let pipes: Array<NodeJS.ReadableStream & { destroy(): void }> = [];
  let size = 0;
  let finished: Promise<boolean> = Promise.resolve(true);
  return {
    stdio: ["pipe", "pipe"],
    attach: (child, stdout, stderr) => {
      pipes = [child.stdout, child.stderr].filter(
        (pipe): pipe is NonNullable<typeof pipe> => pipe !== null,
      );
      child.stdout?.on("data", (chunk: Buffer) => {
        size += chunk.length;
        stdout.push(chunk);
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        size += chunk.length;
        stderr.push(chunk);
      });
      finished = Promise.all(
        pipes.map((pipe) => new Promise<void>((resolve) => pipe.once("close", () => resolve()))),
      ).then(() => true);
    },
    size: async () => size,
    drain: async (stdout, stderr) => {
      let timer: NodeJS.Timeout | undefined;
      const complete = await Promise.race([
        finished,
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), DEFAULT_OUTPUT_DRAIN_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!complete) for (const pipe of pipes) pipe.destroy();
      stdout.finish();
      stderr.finish();
      return complete;
    },
    close: async () => undefined,
  };
}
