import type {
  GetFileNodesResponse,
  GetFileResponse,
  GetFileStylesResponse,
  GetLocalVariablesResponse,
  Node,
  PublishedStyle,
  SubcanvasNode,
} from "@figma/rest-api-spec";
import {
  component,
  componentSet,
  ellipse,
  frame,
  instance,
  inter,
  page,
  rectangle,
  rgba,
  shadow,
  solid,
  text,
  vector,
} from "./figma-nodes.js";

/**
 * A recorded-shape Figma file: a shop's checkout page (a desktop frame with nested auto-layout,
 * a product list of component instances with variants, text styles, fill and effect styles, an
 * image fill, a hidden layer) and a components page, with its published styles and local
 * variables. Modelled on real GET /v1/files responses (field names, id forms `1:2` and
 * `I1:2;3:4`, style ids `S:…`, property names `Label#12:0`), typed by `@figma/rest-api-spec`.
 */

/** The file's key. */
export const SHOP_FILE_KEY = "Qm9vdHN0cmFwU2hvcDAx";

/** The checkout frame's id. */
export const CHECKOUT_FRAME_ID = "1:2";

const STYLE_IDS = {
  surface: "S:6a1f0c2e9b3d4f5a,12:1",
  primary: "S:0b8c2d4e6f708192,12:2",
  textPrimary: "S:c3d4e5f60718293a,12:3",
  heading: "S:a1b2c3d4e5f60718,12:4",
  body: "S:1122334455667788,12:5",
  elevation: "S:99aabbccddeeff00,12:6",
} as const;

const styles: GetFileResponse["styles"] = {
  [STYLE_IDS.surface]: {
    key: "6a1f0c2e9b3d4f5a",
    name: "Surface/Default",
    description: "",
    remote: false,
    styleType: "FILL",
  },
  [STYLE_IDS.primary]: {
    key: "0b8c2d4e6f708192",
    name: "Brand/Primary",
    description: "Buttons, links",
    remote: false,
    styleType: "FILL",
  },
  [STYLE_IDS.textPrimary]: {
    key: "c3d4e5f60718293a",
    name: "Text/Primary",
    description: "",
    remote: false,
    styleType: "FILL",
  },
  [STYLE_IDS.heading]: {
    key: "a1b2c3d4e5f60718",
    name: "Heading/H1",
    description: "",
    remote: false,
    styleType: "TEXT",
  },
  [STYLE_IDS.body]: {
    key: "1122334455667788",
    name: "Body/Regular",
    description: "",
    remote: false,
    styleType: "TEXT",
  },
  [STYLE_IDS.elevation]: {
    key: "99aabbccddeeff00",
    name: "Elevation/1",
    description: "",
    remote: false,
    styleType: "EFFECT",
  },
};

const heading = inter(32, 600, 40, { letterSpacing: -0.64 });
const body = inter(16, 400, 24);
const small = inter(14, 400, 20, { textAlignHorizontal: "RIGHT" });

function button(
  id: string,
  x: number,
  y: number,
  state: "Default" | "Hover",
  label: string,
): SubcanvasNode {
  return instance(
    id,
    "Button",
    { x, y, width: 160, height: 48 },
    state === "Hover" ? "2:3" : "2:2",
    [
      text(
        `I${id};2:4`,
        "Label",
        { x: x + 24, y: y + 12, width: 112, height: 24 },
        label,
        inter(16, 600, 24, { textAlignHorizontal: "CENTER" }),
        {
          fills: [solid("#ffffff")],
          layoutSizingHorizontal: "FILL",
        },
      ),
    ],
    {
      fills: [solid(state === "Hover" ? "#1d4ed8" : "#2563eb")],
      styles: state === "Hover" ? {} : { fill: STYLE_IDS.primary },
      cornerRadius: 8,
      layoutMode: "HORIZONTAL",
      primaryAxisAlignItems: "CENTER",
      counterAxisAlignItems: "CENTER",
      paddingLeft: 24,
      paddingRight: 24,
      paddingTop: 12,
      paddingBottom: 12,
      itemSpacing: 8,
      layoutSizingHorizontal: "HUG",
      layoutSizingVertical: "HUG",
      componentProperties: {
        State: { type: "VARIANT", value: state },
        Size: { type: "VARIANT", value: "Large" },
        "Label#12:0": { type: "TEXT", value: label },
        "Show icon#12:1": { type: "BOOLEAN", value: false },
      },
    },
  );
}

const PRODUCTS = [
  ["Linen shirt", "Sand · M", "€59.00"],
  ["Canvas sneakers", "White · 42", "€89.00"],
  ["Wool beanie", "Charcoal", "€25.00"],
  ["Leather belt", "Brown · 90 cm", "€45.00"],
  ["Cotton socks (3 pairs)", "Mixed", "€15.00"],
  ["Rain jacket", "Olive · L", "€129.00"],
] as const;

function productRow(index: number, y: number): SubcanvasNode {
  const [name, variant, price] = PRODUCTS[index] ?? ["", "", ""];
  const id = `1:${100 + index * 10}`;
  return frame(
    id,
    "Product row",
    { x: 120, y, width: 720, height: 96 },
    [
      rectangle(
        `1:${101 + index * 10}`,
        "Thumbnail",
        { x: 136, y: y + 8, width: 80, height: 80 },
        {
          fills: [
            {
              blendMode: "NORMAL",
              type: "IMAGE",
              scaleMode: "FILL",
              imageRef: `a3f9c0d${index}e8b7a6f5c4d3e2f1a0b9c8d7e6f5a4b3`,
            },
          ],
          cornerRadius: 8,
        },
      ),
      frame(
        `1:${102 + index * 10}`,
        "Details",
        { x: 232, y: y + 20, width: 424, height: 56 },
        [
          text(
            `1:${103 + index * 10}`,
            "Name",
            { x: 232, y: y + 20, width: 424, height: 24 },
            name,
            body,
            { styles: { text: STYLE_IDS.body, fill: STYLE_IDS.textPrimary } },
          ),
          text(
            `1:${104 + index * 10}`,
            "Variant",
            { x: 232, y: y + 48, width: 424, height: 20 },
            variant,
            inter(14, 400, 20),
            { fills: [solid("#6b7280")] },
          ),
        ],
        {
          layoutMode: "VERTICAL",
          itemSpacing: 4,
          layoutSizingHorizontal: "FILL",
          layoutSizingVertical: "HUG",
          clipsContent: false,
        },
      ),
      text(
        `1:${105 + index * 10}`,
        "Price",
        { x: 672, y: y + 36, width: 152, height: 20 },
        price,
        small,
        { styles: { fill: STYLE_IDS.textPrimary } },
      ),
    ],
    {
      layoutMode: "HORIZONTAL",
      counterAxisAlignItems: "CENTER",
      itemSpacing: 16,
      paddingLeft: 16,
      paddingRight: 16,
      paddingTop: 8,
      paddingBottom: 8,
      layoutSizingHorizontal: "FILL",
      strokes: [solid("#e5e7eb")],
      strokeWeight: 1,
      individualStrokeWeights: { top: 0, right: 0, bottom: 1, left: 0 },
    },
  );
}

const checkout = frame(
  CHECKOUT_FRAME_ID,
  "Checkout / Desktop",
  { x: 0, y: 0, width: 1440, height: 1024 },
  [
    frame(
      "1:3",
      "Header",
      { x: 120, y: 48, width: 1200, height: 48 },
      [
        text("1:4", "Title", { x: 120, y: 52, width: 200, height: 40 }, "Checkout", heading, {
          styles: { text: STYLE_IDS.heading, fill: STYLE_IDS.textPrimary },
        }),
        vector(
          "1:5",
          "Cart icon",
          { x: 1296, y: 60, width: 24, height: 24 },
          { strokes: [solid("#1e1e1e")], strokeWeight: 2, fills: [] },
        ),
      ],
      {
        layoutMode: "HORIZONTAL",
        primaryAxisAlignItems: "SPACE_BETWEEN",
        counterAxisAlignItems: "CENTER",
        layoutSizingHorizontal: "FILL",
        fills: [],
      },
    ),
    frame(
      "1:6",
      "Body",
      { x: 120, y: 128, width: 1200, height: 808 },
      [
        frame(
          "1:7",
          "Product list",
          { x: 120, y: 128, width: 720, height: 616 },
          PRODUCTS.map((_, index) => productRow(index, 128 + index * 104)),
          {
            layoutMode: "VERTICAL",
            itemSpacing: 8,
            layoutSizingHorizontal: "FILL",
            layoutSizingVertical: "HUG",
          },
        ),
        frame(
          "1:8",
          "Summary card",
          { x: 872, y: 128, width: 448, height: 320 },
          [
            text(
              "1:9",
              "Summary title",
              { x: 896, y: 152, width: 400, height: 24 },
              "Order summary",
              inter(20, 600, 28),
              { styles: { fill: STYLE_IDS.textPrimary } },
            ),
            frame(
              "1:10",
              "Total row",
              { x: 896, y: 192, width: 400, height: 24 },
              [
                text(
                  "1:11",
                  "Total label",
                  { x: 896, y: 192, width: 200, height: 24 },
                  "Total",
                  body,
                  { styles: { text: STYLE_IDS.body } },
                ),
                text(
                  "1:12",
                  "Total value",
                  { x: 1096, y: 192, width: 200, height: 24 },
                  "€362.00",
                  inter(16, 600, 24, { textAlignHorizontal: "RIGHT" }),
                ),
              ],
              {
                layoutMode: "HORIZONTAL",
                primaryAxisAlignItems: "SPACE_BETWEEN",
                layoutSizingHorizontal: "FILL",
              },
            ),
            rectangle(
              "1:13",
              "Divider",
              { x: 896, y: 232, width: 400, height: 1 },
              { fills: [solid("#e5e7eb")] },
            ),
            button("1:14", 896, 248, "Default", "Pay now"),
            button("1:15", 1072, 248, "Hover", "Pay later"),
            text(
              "1:16",
              "Promo (hidden)",
              { x: 896, y: 312, width: 400, height: 20 },
              "Use code SPRING",
              body,
              { visible: false },
            ),
            ellipse(
              "1:17",
              "Secure badge",
              { x: 896, y: 320, width: 16, height: 16 },
              { fills: [solid("#16a34a")] },
            ),
          ],
          {
            layoutMode: "VERTICAL",
            itemSpacing: 16,
            paddingLeft: 24,
            paddingRight: 24,
            paddingTop: 24,
            paddingBottom: 24,
            layoutSizingVertical: "HUG",
            fills: [solid("#ffffff")],
            styles: { fill: STYLE_IDS.surface, effect: STYLE_IDS.elevation },
            cornerRadius: 12,
            effects: [shadow(4, 12, "#000000", 0.1), shadow(1, 2, "#000000", 0.06)],
            strokes: [solid("#e5e7eb")],
            strokeWeight: 1,
          },
        ),
      ],
      {
        layoutMode: "HORIZONTAL",
        itemSpacing: 32,
        layoutWrap: "WRAP",
        counterAxisSpacing: 24,
        layoutSizingHorizontal: "FILL",
      },
    ),
  ],
  {
    fills: [solid("#f9fafb")],
    layoutMode: "VERTICAL",
    itemSpacing: 32,
    paddingLeft: 120,
    paddingRight: 120,
    paddingTop: 48,
    paddingBottom: 48,
    exportSettings: [{ suffix: "", format: "PNG", constraint: { type: "SCALE", value: 2 } }],
  },
);

const buttonSet = componentSet(
  "2:1",
  "Button",
  { x: 2000, y: 0, width: 400, height: 120 },
  [
    component("2:2", "State=Default, Size=Large", { x: 2020, y: 20, width: 160, height: 48 }, [], {
      fills: [solid("#2563eb")],
      styles: { fill: STYLE_IDS.primary },
      cornerRadius: 8,
    }),
    component("2:3", "State=Hover, Size=Large", { x: 2200, y: 20, width: 160, height: 48 }, [], {
      fills: [solid("#1d4ed8")],
      cornerRadius: 8,
    }),
  ],
  {
    componentPropertyDefinitions: {
      State: { type: "VARIANT", defaultValue: "Default", variantOptions: ["Default", "Hover"] },
      Size: { type: "VARIANT", defaultValue: "Large", variantOptions: ["Large"] },
      "Label#12:0": { type: "TEXT", defaultValue: "Button" },
    },
  },
);

const components: GetFileResponse["components"] = {
  "2:2": {
    key: "c0ffee0000000002",
    name: "State=Default, Size=Large",
    description: "",
    componentSetId: "2:1",
    documentationLinks: [],
    remote: false,
  },
  "2:3": {
    key: "c0ffee0000000003",
    name: "State=Hover, Size=Large",
    description: "",
    componentSetId: "2:1",
    documentationLinks: [],
    remote: false,
  },
};
const componentSets: GetFileResponse["componentSets"] = {
  "2:1": {
    key: "c0ffee0000000001",
    name: "Button",
    description: "Primary action",
    documentationLinks: [],
    remote: false,
  },
};

/** The published styles' own nodes: GET /v1/files/:key/nodes finds them, the document does not hold them. */
export const shopStyleNodes: Record<string, Node> = {
  "12:1": rectangle(
    "12:1",
    "Surface/Default",
    { x: 0, y: 0, width: 100, height: 100 },
    { fills: [solid("#ffffff")] },
  ),
  "12:2": rectangle(
    "12:2",
    "Brand/Primary",
    { x: 0, y: 0, width: 100, height: 100 },
    { fills: [solid("#2563eb")] },
  ),
  "12:3": rectangle(
    "12:3",
    "Text/Primary",
    { x: 0, y: 0, width: 100, height: 100 },
    { fills: [solid("#1e1e1e")] },
  ),
  "12:4": text("12:4", "Heading/H1", { x: 0, y: 0, width: 100, height: 40 }, "Ag", heading),
  "12:5": text("12:5", "Body/Regular", { x: 0, y: 0, width: 100, height: 24 }, "Ag", body),
  "12:6": rectangle(
    "12:6",
    "Elevation/1",
    { x: 0, y: 0, width: 100, height: 100 },
    { effects: [shadow(4, 12, "#000000", 0.1), shadow(1, 2, "#000000", 0.06)] },
  ),
};

const document: GetFileResponse["document"] = {
  id: "0:0",
  name: "Document",
  type: "DOCUMENT",
  scrollBehavior: "SCROLLS",
  children: [page("0:1", "Checkout", [checkout]), page("0:2", "Components", [buttonSet])],
};

const fileHead = {
  name: "Shop — Checkout",
  role: "viewer" as const,
  lastModified: "2025-05-12T09:41:07Z",
  editorType: "figma" as const,
  thumbnailUrl: "https://s3-alpha.figma.com/thumbnails/0d4c2a0e-8f4b-4c55-9f3e-5a1b2c3d4e5f",
  version: "2207811947261538716",
};

/** GET /v1/files/:key — the whole file. */
export const shopFile: GetFileResponse = {
  ...fileHead,
  document,
  components,
  componentSets,
  schemaVersion: 0,
  styles,
  linkAccess: "view",
};

function findNode(node: Node, id: string): Node | undefined {
  if (node.id === id) return node;
  for (const child of (node as { children?: Node[] }).children ?? []) {
    const found = findNode(child, id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * GET /v1/files/:key/nodes?ids=… — as Figma answers it (an unknown id maps to null).
 *
 * @param ids - node ids
 * @returns the response
 */
export function shopNodes(ids: readonly string[]): GetFileNodesResponse {
  const nodes: Record<string, GetFileNodesResponse["nodes"][string]> = {};
  for (const id of ids) {
    const found = shopStyleNodes[id] ?? findNode(document, id);
    if (found === undefined) (nodes as Record<string, unknown>)[id] = null;
    else nodes[id] = { document: found, components, componentSets, schemaVersion: 0, styles };
  }
  return { ...fileHead, nodes };
}

const user = {
  id: "1187563299483471219",
  handle: "Ada",
  img_url: "https://s3-alpha.figma.com/profile/ada",
};
function published(nodeId: string, styleId: keyof typeof STYLE_IDS): PublishedStyle {
  const style = styles[STYLE_IDS[styleId]];
  return {
    key: style?.key ?? "",
    file_key: SHOP_FILE_KEY,
    node_id: nodeId,
    style_type: style?.styleType ?? "FILL",
    thumbnail_url: `https://s3-alpha.figma.com/styles/${nodeId}`,
    name: style?.name ?? "",
    description: style?.description ?? "",
    created_at: "2025-03-02T10:00:00.000Z",
    updated_at: "2025-05-10T16:12:44.000Z",
    user,
    sort_position: "a",
  };
}

/** GET /v1/files/:key/styles — the published styles. */
export const shopStyles: GetFileStylesResponse = {
  status: 200,
  error: false,
  meta: {
    styles: [
      published("12:1", "surface"),
      published("12:2", "primary"),
      published("12:3", "textPrimary"),
      published("12:4", "heading"),
      published("12:5", "body"),
      published("12:6", "elevation"),
    ],
  },
};

const codeSyntax = {};
/** GET /v1/files/:key/variables/local — two collections, light and dark modes, an alias. */
export const shopVariables: GetLocalVariablesResponse = {
  status: 200,
  error: false,
  meta: {
    variableCollections: {
      "VariableCollectionId:1:1": {
        id: "VariableCollectionId:1:1",
        name: "Primitives",
        key: "5f1c0d9e8b7a6c5d",
        modes: [{ modeId: "1:0", name: "Value" }],
        defaultModeId: "1:0",
        remote: false,
        hiddenFromPublishing: false,
        variableIds: ["VariableID:1:2", "VariableID:1:3", "VariableID:1:4", "VariableID:1:5"],
      },
      "VariableCollectionId:2:1": {
        id: "VariableCollectionId:2:1",
        name: "Theme",
        key: "6e2d1c0b9a8f7e6d",
        modes: [
          { modeId: "2:0", name: "Light" },
          { modeId: "2:1", name: "Dark" },
        ],
        defaultModeId: "2:0",
        remote: false,
        hiddenFromPublishing: false,
        variableIds: ["VariableID:2:2"],
      },
    },
    variables: {
      "VariableID:1:2": {
        id: "VariableID:1:2",
        name: "blue/600",
        key: "k12",
        variableCollectionId: "VariableCollectionId:1:1",
        resolvedType: "COLOR",
        valuesByMode: { "1:0": rgba("#2563eb") },
        remote: false,
        description: "",
        hiddenFromPublishing: false,
        scopes: ["ALL_SCOPES"],
        codeSyntax,
      },
      "VariableID:1:3": {
        id: "VariableID:1:3",
        name: "space/md",
        key: "k13",
        variableCollectionId: "VariableCollectionId:1:1",
        resolvedType: "FLOAT",
        valuesByMode: { "1:0": 16 },
        remote: false,
        description: "",
        hiddenFromPublishing: false,
        scopes: ["GAP"],
        codeSyntax,
      },
      "VariableID:1:4": {
        id: "VariableID:1:4",
        name: "radius/lg",
        key: "k14",
        variableCollectionId: "VariableCollectionId:1:1",
        resolvedType: "FLOAT",
        valuesByMode: { "1:0": 12 },
        remote: false,
        description: "",
        hiddenFromPublishing: false,
        scopes: ["CORNER_RADIUS"],
        codeSyntax,
      },
      "VariableID:1:5": {
        id: "VariableID:1:5",
        name: "gray/900",
        key: "k15",
        variableCollectionId: "VariableCollectionId:1:1",
        resolvedType: "COLOR",
        valuesByMode: { "1:0": rgba("#111827") },
        remote: false,
        description: "",
        hiddenFromPublishing: false,
        scopes: ["ALL_SCOPES"],
        codeSyntax,
      },
      "VariableID:2:2": {
        id: "VariableID:2:2",
        name: "color/action",
        key: "k22",
        variableCollectionId: "VariableCollectionId:2:1",
        resolvedType: "COLOR",
        valuesByMode: {
          "2:0": { type: "VARIABLE_ALIAS", id: "VariableID:1:2" },
          "2:1": rgba("#60a5fa"),
        },
        remote: false,
        description: "Primary actions",
        hiddenFromPublishing: false,
        scopes: ["FRAME_FILL", "SHAPE_FILL"],
        codeSyntax,
      },
    },
  },
};
