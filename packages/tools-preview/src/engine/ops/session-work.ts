import type { PreviewToolData } from "../preview-data.js";
import type { PreviewSession } from "../preview-session.js";

/** What an op does on an open session: the op's own fields of the response. */
export type SessionWork = (
  session: PreviewSession,
  signal: AbortSignal,
) => Promise<Partial<PreviewToolData>>;
