import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A document the server answers with at a fixed path. */
export interface Fixture {
  /** The `content-type` header. */
  contentType: string;
  /** The body. */
  body: string;
}

/** Runs one SQL statement for a page (the pgvector entry's query client posts here). */
export type SqlRunner = (
  text: string,
  values: unknown[],
) => Promise<{ rows: Array<Record<string, unknown>> }>;

/** Options of {@link startEntryServer}. */
export interface EntryServerOptions {
  /** The bundles, by name: served at `/entries/<name>.js`. */
  bundles: ReadonlyMap<string, string>;
  /** Documents served at their path (e.g. `/fixtures/article.html`). */
  fixtures: Readonly<Record<string, Fixture>>;
  /** Answers `POST /sql` (`{ text, values }` → `{ rows }`), when given. */
  sql?: SqlRunner;
}

/** The server the pages load from, with what it was asked for. */
export interface EntryServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** `127.0.0.1:<port>`: the host a page's `allowHosts` names. */
  host: string;
  /** Every request path, in order (to see that a page really reached the server). */
  requests: string[];
  /** Stops the server. */
  close(): Promise<void>;
}

const BLANK_PAGE = "<!doctype html><html><head><title>entries</title></head><body></body></html>";

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function answer(response: ServerResponse, status: number, contentType: string, body: string) {
  response.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  response.end(body);
}

async function answerSql(sql: SqlRunner, request: IncomingMessage, response: ServerResponse) {
  try {
    const { text, values } = JSON.parse(await readBody(request)) as {
      text: string;
      values?: unknown[];
    };
    const result = await sql(text, values ?? []);
    answer(response, 200, "application/json", JSON.stringify({ rows: result.rows }));
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    answer(response, 500, "application/json", JSON.stringify({ message, code }));
  }
}

/**
 * Starts the HTTP server on 127.0.0.1 (a free port) that the browser pages load from: a blank
 * page at `/`, the bundles at `/entries/<name>.js`, the fixtures at their paths, and `POST /sql`
 * when a runner is given. The page and everything it fetches share one origin, so no CORS.
 *
 * @param options - bundles, fixtures and the SQL runner
 * @returns the server's origin, its request log and `close`
 * @example
 * const server = await startEntryServer({ bundles, fixtures: {} });
 * await page.goto(`${server.origin}/`);
 */
export async function startEntryServer(options: EntryServerOptions): Promise<EntryServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    requests.push(path);
    if (path === "/") return answer(response, 200, "text/html; charset=utf-8", BLANK_PAGE);
    if (path === "/favicon.ico") return answer(response, 204, "image/x-icon", "");
    const bundle = /^\/entries\/([\w-]+)\.js$/.exec(path)?.[1];
    if (bundle !== undefined && options.bundles.has(bundle)) {
      return answer(response, 200, "text/javascript", options.bundles.get(bundle) as string);
    }
    const fixture = options.fixtures[path];
    if (fixture !== undefined) return answer(response, 200, fixture.contentType, fixture.body);
    if (path === "/sql" && request.method === "POST" && options.sql !== undefined) {
      void answerSql(options.sql, request, response);
      return;
    }
    answer(response, 404, "text/plain", `nothing at ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
