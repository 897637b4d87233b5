import { createDesignTools } from "@agentool/tools-design";
import { RECORDED_FIGMA_FILES, startRecordedFigmaServer } from "@agentool/tools-design/testing";
import { createGuardedTransport } from "@agentool/tools-web/node";
import type { DemoFamily } from "./demo-family.js";

/** The recorded Figma file's key (a shop's checkout) and its "Summary card" frame. */
export const FIGMA_FILE = {
  key: RECORDED_FIGMA_FILES.shopCheckout.fileKey,
  summaryCard: RECORDED_FIGMA_FILES.shopCheckout.nodes.summaryCard,
} as const;

/** The demo host's Figma token: given to the tools by the host, never by the model. */
const DEMO_FIGMA_TOKEN = "figd_demo-host-token";

/** The tools the design tools' descriptions may name (served by the demo's other families). */
const MOUNTED = ["read_file", "write_file", "preview"];

/** The HTML artifact the agent writes from the frame and previews. */
export const CARD_ARTIFACT = "summary-card.html";

/**
 * The card as the scripted model writes it from design_read's spec and design_tokens' CSS: a
 * 448 px column (gap 16, padding 24) on Surface/Default with Elevation/1, the title (Inter 20/28
 * semibold), the total row (space-between), a divider, the two buttons (Brand/Primary and the
 * hover blue, padding 12/24, radius 8) and the green secure badge.
 */
export const CARD_ARTIFACT_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Order summary</title>
<style>
  :root {
    --color-surface-default: #ffffff;
    --color-brand-primary: #2563eb;
    --color-text-primary: #1e1e1e;
    --radius-radius-lg: 12px;
    --shadow-elevation-1: 0px 4px 12px 0px #0000001a, 0px 1px 2px 0px #0000000f;
  }
  body { margin: 0; padding: 24px; background: #f3f4f6; font-family: Inter, sans-serif; }
  .card { box-sizing: border-box; width: 448px; display: flex; flex-direction: column; gap: 16px;
    padding: 24px; background: var(--color-surface-default); border: 1px solid #e5e7eb;
    border-radius: var(--radius-radius-lg); box-shadow: var(--shadow-elevation-1); color: #1e1e1e; }
  h2 { margin: 0; font-size: 20px; font-weight: 600; line-height: 28px; color: var(--color-text-primary); }
  .total { display: flex; justify-content: space-between; font-size: 16px; line-height: 24px; }
  .total strong { font-weight: 600; }
  hr { width: 100%; height: 1px; margin: 0; border: 0; background: #e5e7eb; }
  .actions { display: flex; gap: 16px; }
  button { padding: 12px 24px; border: 0; border-radius: 8px; font: 600 16px/24px Inter, sans-serif; color: #ffffff; }
  .pay-now { background: var(--color-brand-primary); }
  .pay-later { background: #1d4ed8; }
  .badge { width: 16px; height: 16px; border-radius: 50%; background: #16a34a; }
</style></head>
<body><section class="card">
  <h2>Order summary</h2>
  <div class="total"><span>Total</span><strong>€362.00</strong></div>
  <hr>
  <div class="actions"><button class="pay-now">Pay now</button><button class="pay-later">Pay later</button></div>
  <span class="badge" aria-label="Secure checkout"></span>
</section></body></html>
`;

/**
 * The `@agentool/tools-design` family: a local server answers Figma's REST API from a recorded
 * file (the demo host holds the token; the tools send it to that origin only, through the
 * SSRF-guarded transport). The agent reads the checkout's "Summary card" frame with design_read
 * and the file's tokens with design_tokens, writes the card as an HTML artifact with write_file,
 * and opens it in the preview, where the title, the total and the card's width (448 px, as the
 * frame) are read back.
 */
export const designFamily: DemoFamily = {
  name: "design",
  createTools: async ({ workspaceRoot, onCleanup }) => {
    const figma = await startRecordedFigmaServer({ token: DEMO_FIGMA_TOKEN });
    const transport = createGuardedTransport({ allowHosts: [new URL(figma.origin).host] });
    onCleanup(async () => {
      await transport.close();
      await figma.close();
    });
    return createDesignTools({
      root: workspaceRoot,
      figmaToken: DEMO_FIGMA_TOKEN,
      baseUrl: figma.origin,
      transport,
      mountedTools: MOUNTED,
    });
  },
  tasks: [
    {
      step: "Build the checkout's summary card from its Figma frame and preview it",
      turns: [
        {
          text: "The designer shared the checkout in Figma; read the Summary card frame as a spec.",
          toolCalls: [
            {
              name: "design_read",
              arguments: { file_key: FIGMA_FILE.key, node_id: FIGMA_FILE.summaryCard },
            },
          ],
        },
        {
          text: "The frame names its styles (Surface/Default, Brand/Primary, Elevation/1): get them as CSS.",
          toolCalls: [{ name: "design_tokens", arguments: { file_key: FIGMA_FILE.key } }],
        },
        {
          text: "A 448 px column, gap 16, padding 24: writing it as HTML with the file's tokens.",
          toolCalls: [
            { name: "write_file", arguments: { path: CARD_ARTIFACT, content: CARD_ARTIFACT_HTML } },
          ],
        },
        {
          toolCalls: [{ name: "preview", arguments: { op: "open", path: CARD_ARTIFACT } }],
        },
        {
          text: "Check it rendered: the title, the total and the card's width.",
          toolCalls: [
            {
              name: "preview",
              arguments: {
                op: "eval",
                code: "const card = document.querySelector('.card'); return { title: card.querySelector('h2').textContent, total: card.querySelector('.total strong').textContent, width: card.getBoundingClientRect().width, buttons: card.querySelectorAll('button').length };",
              },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    `Built ${CARD_ARTIFACT} from the Figma frame "Summary card" (design_read + design_tokens) and previewed it: "Order summary", €362.00 and two buttons in a 448 px card, as designed.`,
  ],
};
