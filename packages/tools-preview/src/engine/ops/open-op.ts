import {
  fail,
  formatCount,
  normalizeRelativePath,
  ok,
  type ToolContext,
  type ToolResult,
} from "@agentool/contract";
import { PreviewError } from "../../preview-backend.js";
import { artifactContentSecurityPolicy, prepareArtifactDocument } from "../artifact-document.js";
import { AssetBudget } from "../asset-budget.js";
import { CallDeadline } from "../call-deadline.js";
import { callFailure, cutOffFailure } from "../call-failures.js";
import { checkSummary } from "../driver-answers.js";
import type { EngineScope } from "../engine-scope.js";
import { ARTIFACT_ORIGIN, FileInliner } from "../inline-files.js";
import { MAX_CONSOLE_ENTRY_CHARACTERS, MAX_DRIVER_CONSOLE_ENTRIES } from "../limits.js";
import type { PreviewToolData } from "../preview-data.js";
import { PreviewSession } from "../preview-session.js";
import { readArtifact, readArtifactBytes } from "../read-artifact.js";

/**
 * A fresh postMessage channel token (the iframe backend's driver answers only on it).
 *
 * @returns `agentool-preview-` and 32 hex digits
 */
export function randomChannel(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `agentool-preview-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The reader of one page's own files: the tool's source and cap, secrets refused, within the
 * page's {@link AssetBudget}.
 */
function assetReader(scope: EngineScope) {
  const budget = new AssetBudget(scope.settings.maxArtifactBytes);
  return async (path: string, signal: AbortSignal): Promise<Uint8Array> => {
    budget.admit();
    const bytes = await readArtifactBytes(
      scope.source,
      path,
      signal,
      scope.settings.maxArtifactBytes,
    );
    budget.served(bytes.byteLength);
    return bytes;
  };
}

/** Opens the backend's session for the artifact and adds it to the pool (busy with this call). */
async function startSession(
  scope: EngineScope,
  thread: string,
  path: string,
  html: string,
  signal: AbortSignal,
): Promise<PreviewSession> {
  const channel = randomChannel();
  const { assetOrigin, inlinesFiles } = scope.backend;
  const contentSecurityPolicy = artifactContentSecurityPolicy(assetOrigin);
  const readAsset =
    assetOrigin !== undefined || inlinesFiles === true ? assetReader(scope) : undefined;
  let document = html;
  let importMap = "";
  const notes: string[] = [];
  if (inlinesFiles === true && readAsset !== undefined) {
    const inlined = await new FileInliner((file) => readAsset(file, signal)).inline(html, path);
    document = inlined.html;
    importMap = inlined.importMap;
    notes.push(...inlined.problems);
  }
  const assetBase =
    assetOrigin !== undefined
      ? `${assetOrigin}/`
      : inlinesFiles === true
        ? `${ARTIFACT_ORIGIN}/`
        : undefined;
  const backendSession = await scope.backend.open({
    path,
    document: prepareArtifactDocument(document, {
      channel,
      maxEntries: MAX_DRIVER_CONSOLE_ENTRIES,
      maxEntryCharacters: MAX_CONSOLE_ENTRY_CHARACTERS,
      path,
      ...(assetBase === undefined ? {} : { assetBase }),
      ...(inlinesFiles === true ? { fetchBridge: true, importMap, notes } : {}),
      contentSecurityPolicy,
    }),
    channel,
    contentSecurityPolicy,
    viewport: scope.settings.viewport,
    signal,
    ...(readAsset === undefined ? {} : { readAsset }),
  });
  const session = new PreviewSession(thread, path, backendSession);
  scope.pool.add(session);
  return session;
}

/** Loads the document, waits for the driver's `loaded`, and answers with the summary. */
async function loadSession(
  scope: EngineScope,
  session: PreviewSession,
  characters: number,
  signal: AbortSignal,
): Promise<ToolResult<PreviewToolData>> {
  await session.backend.load(signal);
  const summary = checkSummary(await session.callDriver("loaded", [], signal));
  const output = await session.drainConsole();
  session.busy -= 1;
  scope.pool.touch(session);
  return ok({
    op: "open",
    session: session.data("open", scope.settings.idleMs, scope.backend.kind),
    title: summary.title,
    characters,
    width: summary.width,
    height: summary.height,
    canvases: summary.canvases,
    console: output.entries,
    console_omitted: output.omitted,
  });
}

/** The failure of an `open` that threw or was cut off; a half-open session is ended or recovered. */
async function openFailure(
  scope: EngineScope,
  error: unknown,
  deadline: CallDeadline,
  session: PreviewSession | undefined,
  path: string,
): Promise<ToolResult<PreviewToolData>> {
  const { name, deadlineMs } = scope.settings;
  if (deadline.signal.aborted) {
    if (session === undefined)
      return deadline.reason() === "aborted"
        ? fail("ABORTED", `${name} open was cancelled.`, { retryable: true })
        : fail(
            "TIMEOUT",
            `${name} could not read or start ${path} within ${formatCount(deadlineMs)} ms.`,
            { retryable: true },
          );
    session.busy -= 1;
    return cutOffFailure(scope.pool, scope.settings, session, deadline.reason(), `open of ${path}`);
  }
  if (session !== undefined) await scope.pool.end(session, `opening ${path} failed`);
  if (PreviewError.isInstance(error)) throw error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT" || code === "FILE_NOT_FOUND")
    return fail("FILE_NOT_FOUND", `${path} does not exist.`, {
      hint: "Write the artifact first, or check the path (list the workspace to find it).",
    });
  return callFailure(scope.settings, error, "open");
}

/**
 * `open`: reads the artifact and loads it in a fresh session of the conversation (the previous
 * one is closed once the artifact is read — an artifact that cannot be read leaves it open; the
 * oldest session of another conversation makes room at the cap). An absolute path inside the
 * workspace root is accepted, as in the fs and git families.
 *
 * @param scope - the engine
 * @param thread - the conversation
 * @param rawPath - the path as the model gave it
 * @param context - the call's context
 * @returns the open response, or a failure
 */
export async function openArtifact(
  scope: EngineScope,
  thread: string,
  rawPath: string,
  context: ToolContext,
): Promise<ToolResult<PreviewToolData>> {
  const settings = scope.settings;
  const name = settings.name;
  const normalized = normalizeRelativePath(rawPath, {
    roots: settings.roots,
    rootName: "workspace",
  });
  if (normalized.path === undefined)
    return fail("INVALID_PATH", normalized.problem, {
      hint: "Give the artifact's path relative to the workspace, e.g. game/index.html.",
    });
  const path = normalized.path;
  const unavailable = scope.backend.unavailable();
  if (unavailable !== undefined)
    return fail(unavailable.code, unavailable.message, { hint: unavailable.hint });
  const deadline = new CallDeadline(context, settings.deadlineMs);
  let session: PreviewSession | undefined;
  try {
    // Read before the conversation's session is replaced: an artifact that cannot be read
    // (missing, refused, too large) leaves that session as it was.
    const html = await readArtifact(scope.source, path, deadline.signal, settings.maxArtifactBytes);
    const previous = scope.pool.get(thread);
    if (previous !== undefined) await scope.pool.end(previous, undefined);
    await scope.pool.makeRoom(settings.maxSessions);
    session = await startSession(scope, thread, path, html, deadline.signal);
    if (scope.disposed) {
      await scope.pool.end(session, "the tool was disposed");
      return fail("ABORTED", `${name} was disposed while opening ${path}.`);
    }
    return await loadSession(scope, session, html.length, deadline.signal);
  } catch (error) {
    return await openFailure(scope, error, deadline, session, path);
  } finally {
    deadline.done();
  }
}
