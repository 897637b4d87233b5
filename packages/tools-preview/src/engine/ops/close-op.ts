import { ok, type ToolResult } from "@agentool/contract";
import type { EngineScope } from "../engine-scope.js";
import type { PreviewToolData } from "../preview-data.js";

/**
 * `close`: ends the conversation's session (with the console since the last call).
 *
 * @param scope - the engine
 * @param thread - the conversation
 * @returns the close response (`closed: false` when no session was open)
 */
export async function closeSession(
  scope: EngineScope,
  thread: string,
): Promise<ToolResult<PreviewToolData>> {
  const { idleMs } = scope.settings;
  const session = scope.pool.get(thread);
  if (session === undefined)
    return ok({
      op: "close",
      session: {
        path: "(none)",
        state: "closed",
        calls: 0,
        idle_timeout_ms: idleMs,
        backend: scope.backend.kind,
      },
      closed: false,
      console: [],
      console_omitted: 0,
    });
  session.calls += 1;
  const output = await session.drainConsole();
  await scope.pool.end(session, "it was closed by op close");
  return ok({
    op: "close",
    session: session.data("closed", idleMs, scope.backend.kind),
    closed: true,
    console: output.entries,
    console_omitted: output.omitted,
  });
}
