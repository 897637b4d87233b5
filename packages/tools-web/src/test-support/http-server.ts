import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

/** A request the test server saw. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A route handler. */
export type Handler = (
  request: IncomingMessage,
  response: ServerResponse,
  body: string,
) => void | Promise<void>;

/** A running local server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request seen, in order. */
  requests: SeenRequest[];
  server: Server;
}

/**
 * Starts a real HTTP server on 127.0.0.1 with exact-path routes (query ignored), closed after
 * the test file.
 *
 * @param routes - path → handler
 * @returns the server
 */
export async function startServer(routes: Record<string, Handler>): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method ?? "GET",
        url: request.url ?? "/",
        headers: request.headers,
        body,
      });
      const path = new URL(request.url ?? "/", "http://x").pathname;
      const handler = routes[path];
      if (handler === undefined) {
        response.writeHead(404, { "content-type": "text/plain" });
        response.end("not found");
        return;
      }
      Promise.resolve(handler(request, response, body)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { origin: `http://127.0.0.1:${port}`, port, requests, server };
}

/**
 * A handler that answers with a fixed body.
 *
 * @param contentType - the Content-Type
 * @param body - the body
 * @param status - the status (default 200)
 * @returns the handler
 */
export function respond(contentType: string, body: string | Uint8Array, status = 200): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(body);
  };
}

/**
 * A handler answering JSON.
 *
 * @param value - the JSON value
 * @param status - the status
 * @returns the handler
 */
export function json(value: unknown, status = 200): Handler {
  return respond("application/json; charset=utf-8", JSON.stringify(value), status);
}
