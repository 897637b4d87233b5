import type { CommandOutputCollector } from "./command-output-collector.js";
import type { CommandOutputData } from "./run-command-data.js";

/**
 * Shares the character budget between a command's two streams: each gets half, and a stream
 * that needs less leaves the rest to the other.
 *
 * @param stdout - standard output, ended
 * @param stderr - standard error, ended
 * @param maxOutputCharacters - the budget of both together
 * @returns both streams as shown
 */
export function arrangeOutput(
  stdout: CommandOutputCollector,
  stderr: CommandOutputCollector,
  maxOutputCharacters: number,
): { stdout: CommandOutputData; stderr: CommandOutputData } {
  const half = Math.floor(maxOutputCharacters / 2);
  const outCost = stdout.cost();
  const errCost = stderr.cost();
  let outBudget = half;
  if (outCost <= half) outBudget = outCost;
  else if (errCost <= half) outBudget = maxOutputCharacters - errCost;
  return {
    stdout: stdout.arrange(outBudget),
    stderr: stderr.arrange(maxOutputCharacters - Math.min(outBudget, outCost)),
  };
}
