/**
 * The first line of an error's message without playwright's `page.method: ` prefix.
 *
 * @param error - anything thrown
 * @returns one line for the model
 */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)).replace(
    /^\w+\.\w+: /,
    "",
  );
}
