import type { NameOccurrence } from "../tree-sitter/name-occurrences.js";
import { classHeaders } from "./class-family.js";
import { type Definition, type ModuleGraph, moduleStyleOf } from "./module-graph.js";

/**
 * How `find_references` decides which same-spelled identifiers are references, syntactically:
 *
 * - **imports** (a plain name declared at the top of some workspace file): a file's occurrences
 *   count for a declaration only when the file declares the name or imports it from a module
 *   that resolves to the declaration (through re-exports), or reads it as `ns.name` from such a
 *   module; grouped by declaration. Imports from packages form their own groups; members named
 *   alike (`x.name`, `name()` in a class) form a `members` group; the rest is left out.
 * - **members** (a plain name declared only as a member): member declarations and member
 *   accesses, any type; plain identifiers left out.
 * - **qualified** (`Class.member`): member accesses in files that see the class or one of its
 *   syntactic subclasses/implementers, and the member's declarations inside those types.
 * - **text** (declared nowhere in the workspace — a library's name): every identifier, as before.
 *
 * @internal
 */

/** One group of the answer. */
export interface CollectedGroup {
  kind: "definition" | "members" | "package" | "unfollowed" | "text";
  /** What the group is, for the model. */
  label: string;
  /** The declaration's file, for `definition` groups. */
  path?: string;
  /** The declaration's 1-based line, when known. */
  line?: number;
  /** Occurrences per file (path order). */
  files: Map<string, NameOccurrence[]>;
}

/** What {@link collectReferences} returns. */
export interface CollectedReferences {
  mode: "imports" | "members" | "qualified" | "text";
  groups: CollectedGroup[];
  /** Occurrences not bound to any group (locals, other types' members, …). */
  leftOut: number;
  /** Files those are in. */
  leftOutFiles: number;
  /** Why the mode fell back, when it did. */
  note?: string;
}

/** What {@link collectReferences} needs. */
export interface CollectRequest {
  graph: ModuleGraph;
  /** The last part of the name. */
  identifier: string;
  /** The qualified name's container (`ZodType` of `ZodType.parse`), when given. */
  container?: string;
  /** Keep only definitions in this workspace file or folder. */
  definedIn?: string;
  /** Files under the searched path whose text holds the identifier, in path order. */
  shortlist: string[];
  /** Parsed occurrences of a name in a file (`undefined`: not parsed — no grammar, too large…). */
  occurrences(path: string, name: string): Promise<NameOccurrence[] | undefined>;
  /** Files of the workspace whose text holds one of the words (for definitions and subtypes). */
  filesWithWords(words: string[]): Promise<string[]>;
  /** Progress, every so many files. */
  progress?(done: number, total: number): Promise<void>;
}

const FAMILY_ROUNDS = 8;
const MAX_FAMILY = 500;

function keyOf(definition: Definition): string {
  return `${definition.path}\n${definition.name}`;
}

function under(path: string, folder: string): boolean {
  const normal = folder.replace(/^\.\/?|\/$/g, "");
  return normal === "" || path === normal || path.startsWith(`${normal}/`);
}

class Grouper {
  readonly groups: CollectedGroup[] = [];
  readonly #byKey = new Map<string, CollectedGroup>();
  leftOut = 0;
  readonly leftOutFiles = new Set<string>();

  group(key: string, make: () => CollectedGroup): CollectedGroup {
    let group = this.#byKey.get(key);
    if (group === undefined) {
      group = make();
      this.#byKey.set(key, group);
      this.groups.push(group);
    }
    return group;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  add(group: CollectedGroup, path: string, occurrence: NameOccurrence): void {
    const list = group.files.get(path);
    if (list === undefined) group.files.set(path, [occurrence]);
    else list.push(occurrence);
  }

  drop(path: string): void {
    this.leftOut += 1;
    this.leftOutFiles.add(path);
  }

  result(mode: CollectedReferences["mode"], note?: string): CollectedReferences {
    const ordered = [
      ...this.groups.filter((group) => group.kind === "definition"),
      ...this.groups.filter((group) => group.kind !== "definition"),
    ];
    for (const group of ordered) {
      group.files = new Map([...group.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      for (const list of group.files.values()) list.sort((a, b) => a.index - b.index);
    }
    return {
      mode,
      groups: ordered.filter((group) => group.files.size > 0 || group.kind === "definition"),
      leftOut: this.leftOut,
      leftOutFiles: this.leftOutFiles.size,
      ...(note === undefined ? {} : { note }),
    };
  }
}

function declarationLine(occurrences: NameOccurrence[] | undefined): number | undefined {
  return occurrences?.find(
    (occurrence) =>
      occurrence.role === "declaration" &&
      occurrence.enclosing === null &&
      occurrence.form === "free",
  )?.line;
}

async function definitionGroup(
  grouper: Grouper,
  request: CollectRequest,
  definition: Definition,
  label: string,
): Promise<CollectedGroup> {
  const key = `definition\n${keyOf(definition)}`;
  const line = grouper.has(key)
    ? undefined
    : declarationLine(await request.occurrences(definition.path, definition.name));
  return grouper.group(key, () => ({
    kind: "definition",
    label,
    path: definition.path,
    ...(line === undefined ? {} : { line }),
    files: new Map(),
  }));
}

function textGroup(grouper: Grouper, kind: "text" | "unfollowed", label: string) {
  return grouper.group(kind, () => ({ kind, label, files: new Map() }));
}

function membersGroup(grouper: Grouper, label: string): CollectedGroup {
  return grouper.group("members", () => ({ kind: "members", label, files: new Map() }));
}

/**
 * Sorts the shortlist's occurrences into groups (see the module comment).
 *
 * @param request - the graph, the name and the shortlist
 * @returns the groups and what was left out
 */
export async function collectReferences(request: CollectRequest): Promise<CollectedReferences> {
  if (request.container !== undefined) {
    const qualified = await collectQualified(request, request.container);
    if (qualified !== undefined) return qualified;
  }
  return collectPlain(request);
}

async function allOccurrences(request: CollectRequest, grouper: Grouper, note: string) {
  let done = 0;
  for (const path of request.shortlist) {
    const found = await request.occurrences(path, request.identifier);
    for (const occurrence of found ?? [])
      grouper.add(textGroup(grouper, "text", "every identifier spelled so"), path, occurrence);
    done += 1;
    if (done % 200 === 0) await request.progress?.(done, request.shortlist.length);
  }
  return grouper.result("text", note);
}

async function collectPlain(request: CollectRequest): Promise<CollectedReferences> {
  const { graph, identifier } = request;
  const grouper = new Grouper();
  // Every definition under the path (and, through imports, outside it).
  const definitions: Definition[] = [];
  for (const path of request.shortlist) {
    if (await graph.declares(path, identifier)) definitions.push({ path, name: identifier });
  }
  const wanted = (definition: Definition) =>
    request.definedIn === undefined || under(definition.path, request.definedIn);
  let hasMembers = false;
  const perFile: Array<[string, NameOccurrence[]]> = [];
  let done = 0;
  for (const path of request.shortlist) {
    const found = (await request.occurrences(path, identifier)) ?? [];
    perFile.push([path, found]);
    if (found.some((occurrence) => occurrence.form === "member_declaration")) hasMembers = true;
    done += 1;
    if (done % 200 === 0) await request.progress?.(done, request.shortlist.length);
  }
  // Bind every occurrence first: with a narrow path the declarations may lie outside it.
  const bound: Array<[string, NameOccurrence, Awaited<ReturnType<typeof bindOccurrence>>]> = [];
  const unfollowed: Array<[string, NameOccurrence]> = [];
  for (const [path, found] of perFile) {
    if (found.length === 0) continue;
    if (moduleStyleOf(path) === undefined) {
      for (const occurrence of found) unfollowed.push([path, occurrence]);
      continue;
    }
    const binding = await graph.binding(path, identifier);
    for (const occurrence of found)
      bound.push([path, occurrence, await bindOccurrence(request, path, occurrence, binding)]);
  }
  const anyDefinition =
    definitions.length > 0 || bound.some(([, , target]) => Array.isArray(target));
  if (!anyDefinition && !hasMembers) {
    return allOccurrences(
      request,
      grouper,
      `${identifier} is declared nowhere in the workspace (a library's or a global name): every identifier spelled so is listed, unresolved.`,
    );
  }
  for (const definition of definitions.filter(wanted))
    await definitionGroup(grouper, request, definition, "declared here");
  const membersLabel = `members named ${identifier} (declarations and .${identifier} accesses, any type; ask Type.${identifier} to narrow)`;
  for (const [path, occurrence] of unfollowed) {
    grouper.add(
      textGroup(grouper, "unfollowed", "files whose imports are not followed (other languages)"),
      path,
      occurrence,
    );
  }
  for (const [path, occurrence, target] of bound) {
    if (target === "member") {
      if (hasMembers) grouper.add(membersGroup(grouper, membersLabel), path, occurrence);
      else grouper.drop(path);
    } else if (target === undefined) {
      grouper.drop(path);
    } else if (typeof target === "string") {
      grouper.add(
        grouper.group(`package\n${target}`, () => ({
          kind: "package",
          label: `imported from ${target} (outside the workspace, not followed)`,
          files: new Map(),
        })),
        path,
        occurrence,
      );
    } else {
      const kept = target.filter(wanted);
      if (kept.length === 0) {
        grouper.drop(path);
        continue;
      }
      const group = await definitionGroup(grouper, request, kept[0] as Definition, "declared here");
      grouper.add(group, path, occurrence);
    }
  }
  if (request.definedIn !== undefined) {
    // Members and packages are not definitions in that file.
    for (const group of grouper.groups) {
      if (group.kind === "definition") continue;
      for (const list of group.files.values()) grouper.leftOut += list.length;
      for (const path of group.files.keys()) grouper.leftOutFiles.add(path);
      group.files.clear();
    }
  }
  return grouper.result(anyDefinition ? "imports" : "members");
}

/**
 * Where one occurrence belongs: definitions, a package's module, `"member"`, or nowhere.
 */
async function bindOccurrence(
  request: CollectRequest,
  path: string,
  occurrence: NameOccurrence,
  binding: Awaited<ReturnType<ModuleGraph["binding"]>>,
): Promise<Definition[] | string | "member" | undefined> {
  switch (occurrence.form) {
    case "member_declaration":
      return "member";
    case "member_access": {
      const module =
        occurrence.receiver === undefined
          ? undefined
          : await request.graph.receiverModule(path, occurrence.receiver);
      if (module === undefined) {
        // `Outer.Name = Name;` (a class's static alias of an import, as generated SDKs write).
        if (binding.kind === "defined" && (await aliasAssignment(request, path, occurrence)))
          return binding.definitions;
        return "member";
      }
      const definitions = await request.graph.exported(module, request.identifier);
      return definitions.length > 0 ? definitions : undefined;
    }
    default: {
      if (binding.kind === "defined") {
        // A local declaration of the same name inside a function is not the top-level one.
        if (
          occurrence.role === "declaration" &&
          occurrence.enclosing !== null &&
          occurrence.form === "free" &&
          !binding.definitions.some((definition) => definition.path === path)
        ) {
          return undefined;
        }
        return binding.definitions;
      }
      if (binding.kind === "package") return binding.module;
      // `{ name }` reads a property of that name when no variable of the workspace is meant.
      if (occurrence.form === "shorthand") return "member";
      if (occurrence.form === "import" || occurrence.form === "export") {
        return exportedFrom(request, path);
      }
      return undefined;
    }
  }
}

async function aliasAssignment(
  request: CollectRequest,
  path: string,
  occurrence: NameOccurrence,
): Promise<boolean> {
  const text = (await request.graph.text(path)) ?? "";
  const end = text.indexOf("\n", occurrence.index);
  const rest = text.slice(occurrence.index, end === -1 ? text.length : end);
  const name = request.identifier;
  return rest.startsWith(name) && rest.slice(name.length).replace(/\s|;/g, "") === `=${name}`;
}

/** `export { name } from "./m"` in a file that does not bind the name itself. */
async function exportedFrom(
  request: CollectRequest,
  path: string,
): Promise<Definition[] | string | undefined> {
  const scan = await request.graph.scan(path);
  for (const entry of scan?.reexports ?? []) {
    if (entry.imported !== request.identifier && entry.exported !== request.identifier) continue;
    const target = await request.graph.resolve(path, entry.module);
    if (target === undefined) return entry.module;
    const found = await request.graph.exported(target, entry.imported);
    if (found.length > 0) return found;
  }
  for (const entry of scan?.imports ?? []) {
    if (entry.imported !== request.identifier) continue;
    const target = await request.graph.resolve(path, entry.module);
    if (target === undefined) return entry.module;
    const found = await request.graph.exported(target, entry.imported);
    if (found.length > 0) return found;
  }
  return undefined;
}

/** The class or interface definitions named `container`, and their syntactic subtypes. */
async function familyOf(
  request: CollectRequest,
  roots: Definition[],
): Promise<Map<string, Definition>> {
  const { graph } = request;
  const family = new Map(roots.map((root) => [keyOf(root), root]));
  let frontier = new Set(roots.map((root) => root.name));
  for (let round = 0; round < FAMILY_ROUNDS && frontier.size > 0; round += 1) {
    const next = new Set<string>();
    for (const path of await request.filesWithWords([...frontier])) {
      const style = moduleStyleOf(path);
      const text = style === undefined ? undefined : await graph.text(path);
      if (style === undefined || text === undefined) continue;
      for (const header of classHeaders(text, style)) {
        if (family.has(keyOf({ path, name: header.name }))) continue;
        for (const parent of header.parents) {
          const dot = parent.lastIndexOf(".");
          const last = parent.slice(dot + 1);
          if (!frontier.has(last) && ![...family.values()].some((member) => member.name === last))
            continue;
          const definitions =
            dot === -1
              ? await bindingDefinitions(graph, path, last)
              : await namespaceDefinitions(graph, path, parent.slice(0, dot), last);
          if (definitions.some((definition) => family.has(keyOf(definition)))) {
            family.set(keyOf({ path, name: header.name }), { path, name: header.name });
            next.add(header.name);
            break;
          }
        }
        if (family.size >= MAX_FAMILY) return family;
      }
    }
    frontier = next;
  }
  return family;
}

/** The types a definition extends or implements, transitively (through the files' imports). */
async function ancestorsOf(request: CollectRequest, root: Definition): Promise<Definition[]> {
  const { graph } = request;
  const found = new Map<string, Definition>([[keyOf(root), root]]);
  const queue = [root];
  while (queue.length > 0 && found.size < MAX_FAMILY) {
    const type = queue.shift() as Definition;
    const style = moduleStyleOf(type.path);
    const text = await graph.text(type.path);
    if (style === undefined || text === undefined) continue;
    for (const header of classHeaders(text, style)) {
      if (header.name !== type.name) continue;
      for (const parent of header.parents) {
        const dot = parent.lastIndexOf(".");
        const definitions =
          dot === -1
            ? await bindingDefinitions(graph, type.path, parent)
            : await namespaceDefinitions(
                graph,
                type.path,
                parent.slice(0, dot),
                parent.slice(dot + 1),
              );
        for (const definition of definitions) {
          if (found.has(keyOf(definition))) continue;
          found.set(keyOf(definition), definition);
          queue.push(definition);
        }
      }
    }
  }
  found.delete(keyOf(root));
  return [...found.values()];
}

/** Whether a type declares the member itself (so the member's references reach its subtypes). */
async function declaresMember(request: CollectRequest, type: Definition): Promise<boolean> {
  const found = await request.occurrences(type.path, request.identifier);
  return (
    found?.some(
      (occurrence) =>
        occurrence.form === "member_declaration" &&
        occurrence.enclosing?.split(".").pop() === type.name,
    ) ?? false
  );
}

async function bindingDefinitions(graph: ModuleGraph, path: string, name: string) {
  const binding = await graph.binding(path, name);
  return binding.kind === "defined" ? binding.definitions : [];
}

async function namespaceDefinitions(
  graph: ModuleGraph,
  path: string,
  receiver: string,
  name: string,
): Promise<Definition[]> {
  const module = await graph.receiverModule(path, receiver);
  return module === undefined ? [] : graph.exported(module, name);
}

async function collectQualified(
  request: CollectRequest,
  container: string,
): Promise<CollectedReferences | undefined> {
  const { graph, identifier } = request;
  const roots: Definition[] = [];
  for (const path of await request.filesWithWords([container])) {
    if (request.definedIn !== undefined && !under(path, request.definedIn)) continue;
    const text = await graph.text(path);
    const style = moduleStyleOf(path);
    if (text === undefined || style === undefined) continue;
    if (await graph.declares(path, container)) roots.push({ path, name: container });
  }
  if (roots.length === 0) return undefined;
  const grouper = new Grouper();
  const groups: Array<{
    group: CollectedGroup;
    family: Map<string, Definition>;
    files: Set<string>;
    names: Set<string>;
  }> = [];
  for (const root of roots) {
    // As the language service does: the member's declarations in supertypes are the same
    // member, and so are its overrides in every subtype of those.
    const bases: Definition[] = [];
    for (const ancestor of await ancestorsOf(request, root))
      if (await declaresMember(request, ancestor)) bases.push(ancestor);
    const family = await familyOf(request, [root, ...bases]);
    const files = new Set([...family.values()].map((member) => member.path));
    const subtypes = family.size - 1 - bases.length;
    const group = await definitionGroup(
      grouper,
      request,
      root,
      `${container}.${identifier}${subtypes > 0 ? `, its ${subtypes} subtypes` : ""}${bases.length > 0 ? `, the ${bases.length} supertypes declaring it (${bases.map((base) => base.name).join(", ")}) and theirs` : ""}: declarations in them, and .${identifier} accesses where they are visible`,
    );
    groups.push({
      group,
      family,
      files,
      names: new Set([...family.values()].map((member) => member.name)),
    });
  }
  let done = 0;
  for (const path of request.shortlist) {
    done += 1;
    if (done % 200 === 0) await request.progress?.(done, request.shortlist.length);
    const visibleTo = await visibleGroup(request, path, groups);
    if (visibleTo === undefined) {
      // Not parsed: nothing here can be the member (no subtype visible).
      continue;
    }
    const found = (await request.occurrences(path, identifier)) ?? [];
    for (const occurrence of found) {
      const counted =
        occurrence.form === "member_access" ||
        occurrence.form === "shorthand" ||
        (occurrence.form === "member_declaration" &&
          (occurrence.enclosing === null ||
            visibleTo.names.has(occurrence.enclosing.split(".").pop() as string) ||
            occurrence.enclosingKind === "variable" ||
            occurrence.enclosingKind === "constant" ||
            occurrence.enclosingKind === "function"));
      if (counted) grouper.add(visibleTo.group, path, occurrence);
      else grouper.drop(path);
    }
  }
  return grouper.result("qualified");
}

/**
 * The group whose types a file sees: it declares one, or imports a module whose re-exports reach
 * a file declaring one, or a module that itself imports such a file (a value of the type can
 * come back from a function of that module, as the locale tests' `localeError({ code })` does).
 */
async function visibleGroup<T extends { files: Set<string> }>(
  request: CollectRequest,
  path: string,
  groups: T[],
): Promise<T | undefined> {
  for (const entry of groups) if (entry.files.has(path)) return entry;
  const modules = await importedModules(request, path);
  for (const target of modules) {
    const reach = await request.graph.reach(target);
    for (const entry of groups) for (const file of entry.files) if (reach.has(file)) return entry;
  }
  for (const target of modules) {
    for (const second of await importedModules(request, target)) {
      const reach = await request.graph.reach(second);
      for (const entry of groups) for (const file of entry.files) if (reach.has(file)) return entry;
    }
  }
  return undefined;
}

async function importedModules(request: CollectRequest, path: string): Promise<string[]> {
  const scan = await request.graph.scan(path);
  if (scan === undefined) return [];
  const modules: string[] = [];
  for (const specifier of new Set(
    [...scan.imports, ...scan.reexports].map((entry) => entry.module),
  )) {
    const target = await request.graph.resolve(path, specifier);
    if (target !== undefined) modules.push(target);
  }
  return modules;
}
