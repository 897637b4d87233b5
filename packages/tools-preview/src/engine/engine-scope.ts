import type { PreviewBackend } from "../preview-backend.js";
import type { EngineSettings, PreviewEngineOptions } from "./engine-options.js";
import type { SessionPool } from "./session-pool.js";

/** What the ops that start and end sessions (`open`, `close`) see of the engine. */
export interface EngineScope {
  /** The settings, defaults filled in. */
  readonly settings: EngineSettings;
  /** Where artifacts run. */
  readonly backend: PreviewBackend;
  /** The open sessions. */
  readonly pool: SessionPool;
  /** Where artifacts are read from. */
  readonly source: Pick<PreviewEngineOptions, "read" | "fileSystem">;
  /** Whether the tool was disposed (an `open` in flight then closes what it opened). */
  readonly disposed: boolean;
}
