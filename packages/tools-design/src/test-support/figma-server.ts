import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createGuardedTransport } from "@agentool/tools-web/node";
import type { GetFileResponse, GetImagesResponse } from "@figma/rest-api-spec";
import {
  SHOP_FILE_KEY,
  shopFile,
  shopNodes,
  shopStyles,
  shopVariables,
} from "./figma-shop-file.js";

/** A request the server saw. */
export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A local server speaking Figma's REST API from the recorded shop file. */
export interface FigmaServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request, in order. */
  requests: SeenRequest[];
  /** Answers the next requests whose path starts with a prefix with a fixed status, body and headers. */
  override(prefix: string, status: number, body: unknown, headers?: Record<string, string>): void;
  /** A transport that may reach 127.0.0.1 (the guarded one, with the host allowed). */
  transport: ReturnType<typeof createGuardedTransport>;
  /** Stops the server and the transport. */
  close(): Promise<void>;
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = body instanceof Uint8Array ? body : Buffer.from(JSON.stringify(body));
  response.writeHead(status, {
    "content-type": body instanceof Uint8Array ? "image/png" : "application/json; charset=utf-8",
    ...headers,
  });
  response.end(bytes);
}

/** A 2×1 PNG (red, blue), as Figma's renderer answers an image. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAPAQH/3f4S6QAAAABJRU5ErkJggg==",
  "base64",
);

function depthLimited(node: Record<string, unknown>, depth: number): Record<string, unknown> {
  const children = node.children as Record<string, unknown>[] | undefined;
  if (children === undefined) return node;
  if (depth <= 0) {
    const { children: _children, ...rest } = node;
    return rest;
  }
  return { ...node, children: children.map((child) => depthLimited(child, depth - 1)) };
}

/**
 * Starts the server on 127.0.0.1 (port 0).
 *
 * @param options - where the image URLs of /v1/images point (default: this server)
 * @returns the server
 */
export async function startFigmaServer(
  options: { imageOrigin?: string } = {},
): Promise<FigmaServer> {
  const requests: SeenRequest[] = [];
  const overrides: Array<{
    prefix: string;
    status: number;
    body: unknown;
    headers: Record<string, string>;
  }> = [];
  let origin = "";
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push({ path: `${url.pathname}${url.search}`, headers: request.headers });
    const override = overrides.find((entry) => url.pathname.startsWith(entry.prefix));
    if (override !== undefined)
      return send(response, override.status, override.body, override.headers);
    if (url.pathname.startsWith("/renders/")) return send(response, 200, TINY_PNG);
    const isApi = url.pathname.startsWith("/v1/");
    if (isApi && request.headers["x-figma-token"] !== "figd_test-token") {
      return send(response, 403, { status: 403, err: "Invalid token" });
    }
    const parts = url.pathname.split("/").filter(Boolean);
    const key = parts[2];
    if (key !== SHOP_FILE_KEY) return send(response, 404, { status: 404, err: "Not found" });
    if (parts[1] === "images") {
      const ids = (url.searchParams.get("ids") ?? "").split(",").filter(Boolean);
      const format = url.searchParams.get("format") ?? "png";
      const images: GetImagesResponse["images"] = {};
      for (const id of ids) {
        images[id] = shopNodes([id]).nodes[id]
          ? `${options.imageOrigin ?? origin}/renders/${encodeURIComponent(id)}.${format}`
          : null;
      }
      const answer: GetImagesResponse = { err: null, images };
      return send(response, 200, answer);
    }
    if (parts[3] === "nodes") {
      const answer = shopNodes((url.searchParams.get("ids") ?? "").split(","));
      const depth = url.searchParams.get("depth");
      if (depth !== null) {
        for (const entry of Object.values(answer.nodes)) {
          if (entry !== null)
            entry.document = depthLimited(entry.document as never, Number(depth)) as never;
        }
      }
      return send(response, 200, answer);
    }
    if (parts[3] === "styles") return send(response, 200, shopStyles);
    if (parts[3] === "variables" && parts[4] === "local") return send(response, 200, shopVariables);
    if (parts.length === 3) {
      const depth = url.searchParams.get("depth");
      const document =
        depth === null
          ? shopFile.document
          : depthLimited(shopFile.document as never, Number(depth));
      return send(response, 200, { ...shopFile, document } as GetFileResponse);
    }
    send(response, 404, { status: 404, err: "Not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });
  return {
    origin,
    requests,
    override: (prefix, status, body, headers = {}) =>
      overrides.push({ prefix, status, body, headers }),
    transport,
    close: async () => {
      await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
