// The no-loss check of the design side-by-side (issue 34): every text, size, position, colour,
// auto-layout value (direction, gap, padding, alignment, wrap) and font (family, size, weight)
// that Framelink's get_figma_data gives for a node must be recoverable from the text design_read
// renders for the same node. Both outputs are parsed into facts per node id and compared.
//
// Theirs is read from its JSON output (the same simplified design its default "tree" text and
// its YAML print): nodes with `template` references into `elements`, and style references into
// `globalVars.styles`. Ours is read from the text the model reads (formatDesignRead): one line
// per layer, indented by depth, then the colour, text-style and effect tokens the lines name.

const COLOR_PATTERN = /#[0-9a-fA-F]{8}\b|#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|rgba?\([^)]*\)/g;

/** A colour literal (#rgb, #rrggbb, #rrggbbaa, rgb(), rgba()) as "r,g,b,a" (alpha to 2 places). */
export function colorKey(literal) {
  let channels;
  if (literal.startsWith("#")) {
    let hex = literal.slice(1);
    if (hex.length === 3) hex = [...hex].map((digit) => digit + digit).join("");
    const alpha = hex.length === 8 ? Number.parseInt(hex.slice(6, 8), 16) / 255 : 1;
    channels = [0, 2, 4].map((start) => Number.parseInt(hex.slice(start, start + 2), 16));
    channels.push(alpha);
  } else {
    const parts = literal.replace(/^rgba?\(|\)$/g, "").split(",");
    channels = parts.map((part) => Number(part.trim()));
    if (channels.length === 3) channels.push(1);
  }
  const [red, green, blue, alpha] = channels;
  return `${red},${green},${blue},${Math.round(alpha * 100) / 100}`;
}

/** Every colour literal in a text, as colour keys. */
export function colorsIn(text) {
  return new Set((text.match(COLOR_PATTERN) ?? []).map(colorKey));
}

const px = (value) => Number(String(value).replace(/px$/, ""));

/** CSS padding shorthand ("8px 16px") as [top, right, bottom, left]. */
function paddingTuple(shorthand) {
  const values = shorthand.split(/\s+/).map(px);
  const [top, right = top, bottom = top, left = right] = values;
  return [top, right, bottom, left];
}

const ALIGN = { "flex-start": "start", start: "start", "flex-end": "end", end: "end" };
const alignWord = (value) => ALIGN[value] ?? value;
// Framelink escapes Markdown in text ("\(" for "("); the text itself has no backslash.
const unescapeMarkdown = (text) => text.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");

/**
 * Facts per node id from Framelink's JSON output.
 *
 * @param design - the parsed JSON of get_figma_data (format json)
 * @returns Map id → { parent, text, width, height, x, y, colors, layout, font }
 */
export function theirFacts(design) {
  const styles = design.globalVars?.styles ?? {};
  const elements = design.elements ?? {};
  const resolve = (value) =>
    typeof value === "string" && styles[value] !== undefined ? styles[value] : value;
  const facts = new Map();
  const visit = (raw, parent) => {
    const node = { ...(raw.template === undefined ? {} : elements[raw.template]), ...raw };
    const layout = resolve(node.layout) ?? {};
    const fact = { parent, colors: new Set(), layout: {} };
    if (node.text !== undefined) fact.text = unescapeMarkdown(node.text);
    if (layout.dimensions?.width !== undefined) fact.width = layout.dimensions.width;
    if (layout.dimensions?.height !== undefined) fact.height = layout.dimensions.height;
    if (layout.designedWidth !== undefined) fact.width = px(layout.designedWidth);
    if (layout.designedHeight !== undefined) fact.height = px(layout.designedHeight);
    if (layout.locationRelativeToParent !== undefined) {
      fact.x = layout.locationRelativeToParent.x;
      fact.y = layout.locationRelativeToParent.y;
    }
    const paints = [node.fills, node.strokes, node.effects].map(resolve);
    fact.colors = colorsIn(JSON.stringify(paints));
    if (layout.mode !== undefined && layout.mode !== "none") fact.layout.direction = layout.mode;
    if (layout.gap !== undefined) fact.layout.gaps = layout.gap.split(/\s+/).map(px);
    if (layout.padding !== undefined) fact.layout.padding = paddingTuple(layout.padding);
    if (layout.justifyContent !== undefined) fact.layout.justify = alignWord(layout.justifyContent);
    if (layout.alignItems !== undefined) fact.layout.align = alignWord(layout.alignItems);
    if (layout.alignSelf !== undefined) fact.layout.self = alignWord(layout.alignSelf);
    if (layout.wrap === true) fact.layout.wrap = true;
    const textStyle = resolve(node.textStyle);
    if (textStyle !== undefined && typeof textStyle === "object") {
      fact.font = {
        family: textStyle.fontFamily,
        size: textStyle.fontSize,
        weight: textStyle.fontWeight,
      };
    }
    facts.set(node.id, fact);
    for (const child of raw.children ?? []) visit(child, node.id);
  };
  for (const node of design.nodes ?? []) visit(node, undefined);
  return facts;
}

const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** The value after ` key=` made of token names joined by "+" (names may hold spaces). */
function tokenList(line, key, names) {
  const start = line.indexOf(` ${key}=`);
  if (start < 0) return [];
  let rest = line.slice(start + key.length + 2);
  const found = [];
  for (;;) {
    const name = names.find((candidate) => rest.startsWith(candidate));
    if (name === undefined) break;
    found.push(name);
    rest = rest.slice(name.length);
    if (!rest.startsWith("+")) break;
    rest = rest.slice(1);
  }
  return found;
}

/** The token sections of our text: { colors, effects, textStyles } name → value. */
function ourTokens(lines) {
  const tokens = { colors: new Map(), effects: new Map(), textStyles: new Map() };
  let section;
  for (const line of lines) {
    if (line === "colors:") section = tokens.colors;
    else if (line === "text styles:") section = tokens.textStyles;
    else if (line === "effects:") section = tokens.effects;
    else if (section !== undefined && line.startsWith("  ")) {
      const equals = line.indexOf(" = ");
      section.set(line.slice(2, equals), line.slice(equals + 3));
    } else section = undefined;
  }
  return tokens;
}

/**
 * Facts per node id from design_read's rendered text (all pages joined).
 *
 * @param text - what the model reads
 * @returns Map id → { parent, text, width, height, x, y, colors, layout, sizing, font }
 */
export function ourFacts(text) {
  const lines = text.split("\n");
  const tokens = ourTokens(lines);
  const byLength = (map) => [...map.keys()].sort((a, b) => b.length - a.length);
  const colorNames = byLength(tokens.colors);
  const effectNames = byLength(tokens.effects);
  const styleNames = byLength(tokens.textStyles);
  const facts = new Map();
  const ancestors = [];
  for (const line of lines) {
    const match = /^( *)([a-z_]+) (?:"(?:[^"\\]|\\.)*" )?#(\S+)/.exec(line);
    if (match === null || line.startsWith("Figma ")) continue;
    const depth = match[1].length / 2;
    const id = match[3];
    ancestors.length = depth;
    const fact = { parent: ancestors[depth - 1], colors: new Set(), layout: {} };
    ancestors[depth] = id;
    const textMatch = /: ("(?:[^"\\]|\\.)*")$/.exec(line);
    if (textMatch !== null) fact.text = JSON.parse(textMatch[1]);
    const bare = line.replace(QUOTED, '""');
    const at = / @(-?[\d.]+),(-?[\d.]+)/.exec(bare);
    if (at !== null) [fact.x, fact.y] = [Number(at[1]), Number(at[2])];
    const size = / ([\d.]+)×([\d.]+)/.exec(bare);
    if (size !== null) [fact.width, fact.height] = [Number(size[1]), Number(size[2])];
    const sizing = / size=(\w+)\/(\w+)/.exec(bare);
    fact.sizing = { horizontal: sizing?.[1] ?? "fixed", vertical: sizing?.[2] ?? "fixed" };
    const direction = / (row|column|grid)(?= |$)/.exec(bare);
    if (direction !== null) {
      fact.layout.direction = direction[1];
      const number = (key) => new RegExp(` ${key}=(-?[\\d.]+)`).exec(bare)?.[1];
      fact.layout.gaps = [number("gap"), number("wrap_gap")].filter(Boolean).map(Number);
      const pad = / pad=([-\d.,]+)/.exec(bare)?.[1];
      fact.layout.padding = pad === undefined ? [0, 0, 0, 0] : pad.split(",").map(Number);
      fact.layout.justify = / justify=(\S+)/.exec(bare)?.[1] ?? "start";
      fact.layout.align = / align=(\S+)/.exec(bare)?.[1] ?? "start";
      fact.layout.wrap = / wrap(?= |$)/.test(bare);
    }
    const values = [
      ...[...tokenList(bare, "fill", colorNames), ...tokenList(bare, "stroke", colorNames)].map(
        (name) => tokens.colors.get(name),
      ),
      ...tokenList(bare, "effects", effectNames).map((name) => tokens.effects.get(name)),
    ];
    const [styleName] = tokenList(bare, "style", styleNames);
    const style = styleName === undefined ? undefined : tokens.textStyles.get(styleName);
    if (style !== undefined) {
      const color = /color=(.+)$/.exec(style)?.[1];
      if (color !== undefined) values.push(tokens.colors.get(color) ?? "");
      fact.font = {
        family: JSON.parse(/^("(?:[^"\\]|\\.)*")/.exec(style)?.[1] ?? "null"),
        size: Number(/ ([\d.]+)px/.exec(style)?.[1]),
        weight: Number(/px (\d+)(?: |$)/.exec(style)?.[1]),
      };
    }
    fact.colors = colorsIn(values.join(" "));
    facts.set(id, fact);
  }
  return facts;
}

const near = (a, b) => a !== undefined && b !== undefined && Math.abs(a - b) <= 0.02;
const sameList = (a, b) =>
  a.length === b.length && a.every((value, index) => near(value, b[index]));

/**
 * What theirs has that ours does not: one line per lost value.
 *
 * @param theirs - theirFacts(…)
 * @param ours - ourFacts(…)
 * @returns the losses ([] when none), and how many values were compared
 */
export function compareFacts(theirs, ours) {
  const losses = [];
  let compared = 0;
  const check = (id, what, held, theirValue, ourValue) => {
    compared += 1;
    if (!held) {
      losses.push(
        `${id} ${what}: theirs ${JSON.stringify(theirValue)}, ours ${JSON.stringify(ourValue)}`,
      );
    }
  };
  for (const [id, their] of theirs) {
    const our = ours.get(id);
    if (our === undefined) {
      check(id, "node", false, "present", "missing");
      continue;
    }
    const parent = their.parent === undefined ? undefined : ours.get(their.parent);
    if (their.text !== undefined) check(id, "text", our.text === their.text, their.text, our.text);
    if (their.width !== undefined)
      check(id, "width", near(our.width, their.width), their.width, our.width);
    if (their.height !== undefined)
      check(id, "height", near(our.height, their.height), their.height, our.height);
    for (const axis of ["x", "y"]) {
      if (their[axis] === undefined) continue;
      const relative = parent === undefined ? undefined : our[axis] - parent[axis];
      check(id, axis, near(relative, their[axis]), their[axis], relative);
    }
    for (const color of their.colors) {
      check(id, "colour", our.colors.has(color), color, [...our.colors]);
    }
    const theirLayout = their.layout;
    const ourLayout = our.layout;
    if (theirLayout.direction !== undefined) {
      check(
        id,
        "direction",
        ourLayout.direction === theirLayout.direction,
        theirLayout.direction,
        ourLayout.direction,
      );
    }
    for (const gap of theirLayout.gaps ?? []) {
      check(
        id,
        "gap",
        (ourLayout.gaps ?? []).some((value) => near(value, gap)),
        gap,
        ourLayout.gaps,
      );
    }
    if (theirLayout.padding !== undefined) {
      check(
        id,
        "padding",
        sameList(ourLayout.padding ?? [0, 0, 0, 0], theirLayout.padding),
        theirLayout.padding,
        ourLayout.padding,
      );
    }
    for (const key of ["justify", "align"]) {
      if (theirLayout[key] === undefined) continue;
      check(id, key, ourLayout[key] === theirLayout[key], theirLayout[key], ourLayout[key]);
    }
    if (theirLayout.wrap === true) check(id, "wrap", ourLayout.wrap === true, true, ourLayout.wrap);
    if (theirLayout.self !== undefined) {
      // Figma's layoutAlign STRETCH is the older spelling of FILL on the parent's cross axis.
      const direction = parent?.layout.direction;
      const crossSizing = direction === "row" ? our.sizing.vertical : our.sizing.horizontal;
      const held = theirLayout.self === "stretch" ? crossSizing === "fill" : false;
      check(id, "align-self", held, theirLayout.self, crossSizing);
    }
    if (their.font !== undefined) {
      for (const key of ["family", "size", "weight"]) {
        if (their.font[key] === undefined) continue;
        check(
          id,
          `font ${key}`,
          our.font?.[key] === their.font[key],
          their.font[key],
          our.font?.[key],
        );
      }
    }
  }
  return { losses, compared };
}
