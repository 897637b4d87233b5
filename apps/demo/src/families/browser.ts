import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createBrowserTool } from "@agentool/tools-preview/browser";
import { htmlToMarkdown } from "@agentool/tools-web";
import { createGuardedTransport } from "@agentool/tools-web/node";
import type { DemoFamily } from "./demo-family.js";

/** The account site as the model sees it; served by a local server the transport forwards to. */
export const ACCOUNT_ORIGIN = "http://account.tally.example";

/** The demo account on the local site. */
export const DEMO_ACCOUNT = { user: "demo", password: "tally-demo" };

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** The site's answer to one request: a login form, the login, and a page only a session reads. */
function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const path = new URL(request.url ?? "/", "http://localhost").pathname;
  const signedIn = (request.headers.cookie ?? "").includes("session=demo-session");
  if (path === "/login" && request.method === "POST") {
    const form = new URLSearchParams(body);
    if (form.get("user") === DEMO_ACCOUNT.user && form.get("password") === DEMO_ACCOUNT.password) {
      response.writeHead(303, {
        location: "/account",
        "set-cookie": "session=demo-session; Path=/; HttpOnly",
      });
      response.end();
      return;
    }
    response
      .writeHead(401, { "content-type": "text/html" })
      .end(page("Sign in", "<p>Wrong password.</p>"));
    return;
  }
  if (path === "/login") {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(
        page(
          "Sign in",
          '<form method="post" action="/login"><label>User <input name="user"></label> <label>Password <input name="password" type="password"></label> <button>Sign in</button></form>',
        ),
      );
    return;
  }
  if (path === "/account" && signedIn) {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(
        page(
          "Account",
          '<p id="report">Tally usage this month: 1,284 invoices, 3 seats, plan Team.</p>',
        ),
      );
    return;
  }
  response.writeHead(302, { location: "/login" }).end();
}

/**
 * The browser family (`@agentool/tools-preview/browser`): a local site stands in for a web app
 * behind a login; the agent navigates to the account page, is sent to the sign-in form, fills it,
 * and reads the page only a signed-in session sees. Every request goes through the SSRF-guarded
 * transport of `@agentool/tools-web/node`, which opens exactly that one local server.
 */
export const browserFamily: DemoFamily = {
  name: "browser",
  createTools: async ({ onCleanup }) => {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => answer(request, response, Buffer.concat(chunks).toString("utf8")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const guarded = createGuardedTransport({ allowHosts: [new URL(origin).host] });
    // The model's URLs name the public-looking origin; each request is sent to the local server
    // through the guard (which opens exactly that server), and answers come back under that name.
    const browser = createBrowserTool({
      transport: async (request) => {
        const response = await guarded({
          ...request,
          url: request.url.replace(ACCOUNT_ORIGIN, origin),
        });
        return { ...response, url: response.url.replace(origin, ACCOUNT_ORIGIN) };
      },
      toMarkdown: htmlToMarkdown,
    });
    onCleanup(async () => {
      await browser.dispose();
      await guarded.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return [browser];
  },
  tasks: [
    {
      step: "Sign in to the account site in the browser and read this month's usage",
      turns: [
        {
          toolCalls: [
            { name: "browser", arguments: { op: "navigate", url: `${ACCOUNT_ORIGIN}/account` } },
          ],
        },
        {
          toolCalls: [
            {
              name: "browser",
              arguments: {
                op: "act",
                actions: [
                  { type: "fill", selector: "input[name=user]", value: DEMO_ACCOUNT.user },
                  { type: "fill", selector: "input[name=password]", value: DEMO_ACCOUNT.password },
                  { type: "click", selector: "button" },
                ],
              },
            },
          ],
        },
        {
          toolCalls: [
            { name: "browser", arguments: { op: "read", queries: [{ css: "#report" }] } },
          ],
        },
      ],
    },
  ],
  findings: [
    'The account site needed a sign-in: the browser followed the redirect to the form, signed in, and the account page reads "Tally usage this month: 1,284 invoices, 3 seats, plan Team."',
  ],
};
