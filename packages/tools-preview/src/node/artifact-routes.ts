import type { BrowserContext, Page } from "playwright-core";
import type { PreviewConsoleEntry, PreviewOpenRequest } from "../preview-backend.js";
import { serveAsset } from "./artifact-assets.js";

/** Most refused requests kept between two calls. */
const MAX_BLOCKED = 200;

/**
 * Records a refused request as a console entry (consecutive repeats counted, at most 200).
 *
 * @param blocked - the list handed out by `takeBlocked`
 * @param text - the message
 */
export function recordBlocked(
  blocked: PreviewConsoleEntry[],
  text: string,
  level: PreviewConsoleEntry["level"] = "blocked",
): void {
  const last = blocked[blocked.length - 1];
  if (last !== undefined && last.text === text && last.level === level) last.count += 1;
  else if (blocked.length < MAX_BLOCKED) blocked.push({ level, text, count: 1 });
}

/**
 * Routes every request of a session's context: the artifact's own document is served from the
 * request, the artifact's own files beside it (its origin, when the request can read them:
 * {@link serveAsset}), everything else is refused (a navigation of the page answered 204 so the
 * artifact stays loaded), WebSockets are closed, popups closed.
 *
 * @param context - the session's context
 * @param request - the open request (document, CSP)
 * @param documentUrl - where the document is served
 * @param page - the artifact's page, once it exists
 * @param blocked - where refused requests are recorded
 */
export async function routeArtifact(
  context: BrowserContext,
  request: PreviewOpenRequest,
  documentUrl: string,
  page: () => Page | undefined,
  blocked: PreviewConsoleEntry[],
): Promise<void> {
  const origin = new URL(documentUrl).origin;
  const record = (level: PreviewConsoleEntry["level"], text: string) =>
    recordBlocked(blocked, text, level);
  const routing = context.route("**/*", async (route) => {
    const routed = route.request();
    const mainNavigation = routed.isNavigationRequest() && routed.frame() === page()?.mainFrame();
    if (routed.url() === documentUrl && mainNavigation) {
      await route
        .fulfill({
          status: 200,
          contentType: "text/html; charset=utf-8",
          headers: {
            "content-security-policy": `sandbox allow-scripts; ${request.contentSecurityPolicy}`,
            "cache-control": "no-store",
          },
          body: request.document,
        })
        .catch(() => {});
      return;
    }
    const url = URL.canParse(routed.url()) ? new URL(routed.url()) : undefined;
    if (
      url?.origin === origin &&
      !routed.isNavigationRequest() &&
      request.readAsset !== undefined
    ) {
      await serveAsset(route, url, request, record);
      return;
    }
    recordBlocked(
      blocked,
      url?.origin === origin
        ? `navigation to ${routed.url().slice(origin.length + 1, 300)} refused: the preview keeps one page — open it with op "open"`
        : `no network in preview: ${routed.method()} ${routed.url().slice(0, 300)} refused — serve it from the workspace (a path beside the artifact), inline it or use a data: URL`,
    );
    if (mainNavigation) {
      // A 204 answer to a navigation leaves the page where it is: the artifact stays loaded.
      await route.fulfill({ status: 204, body: "" }).catch(() => {});
      return;
    }
    await route.abort("blockedbyclient").catch(() => {});
  });
  const routingSockets = context.routeWebSocket(/.*/, (socket) => {
    recordBlocked(
      blocked,
      `no network in preview: WebSocket ${socket.url().slice(0, 300)} refused`,
    );
    void socket.close({ code: 1008, reason: "no network in preview" }).catch(() => {});
  });
  await Promise.all([routing, routingSockets]);
  context.on("page", (popup) => {
    const own = page();
    if (own !== undefined && popup !== own) void popup.close().catch(() => {});
  });
}
