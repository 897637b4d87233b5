/** A command line that cannot run: the message names the flag and the fix (exit code 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
