/**
 * Where log lines go unless told otherwise: stderr, prefixed `agentool-mcp: ` (stdout carries
 * the protocol).
 *
 * @param line - one log line
 */
export function defaultLog(line: string): void {
  process.stderr.write(`agentool-mcp: ${line}\n`);
}
