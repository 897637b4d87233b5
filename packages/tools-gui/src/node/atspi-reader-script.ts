/**
 * The Python program that reads the focused window's accessibility tree over AT-SPI (Debian's
 * python3 with python3-gi and gir1.2-atspi-2.0), run as `python3 -I -c <this> <max elements>
 * <max value characters>`. It prints one JSON object on standard output:
 * `{ title, application, focused, box, elements: [[depth, role, name, value, value_cut, states,
 * box]], incomplete, others }` (boxes `[x, y, width, height]` in display pixels), or
 * `{ error: "no-window" }`. Exit 3: the GObject bindings of AT-SPI are not installed.
 *
 * Hidden subtrees (not SHOWING) are skipped; unnamed containers with nothing to act on are
 * left out and their children lifted; a password field's text is never read.
 */
export const ATSPI_READER_SCRIPT = String.raw`
import json, sys, time
try:
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi
except Exception as error:
    sys.stderr.write("AT-SPI bindings missing: %s\n" % error)
    sys.exit(3)

MAX_ELEMENTS = int(sys.argv[1])
MAX_VALUE = int(sys.argv[2])
MAX_VISITS = MAX_ELEMENTS * 10
MAX_DEPTH = 60
S = Atspi.StateType
WINDOW_ROLES = {"frame", "window", "dialog", "alert", "file chooser"}
ACTIONABLE = (S.FOCUSABLE, S.EDITABLE, S.CHECKABLE, S.SELECTABLE, S.EXPANDABLE)
Atspi.set_timeout(2000, 5000)


def box_of(node):
    try:
        rect = node.get_extents(Atspi.CoordType.SCREEN)
    except Exception:
        return None
    if rect is None or rect.width <= 0 or rect.height <= 0:
        return None
    return [rect.x, rect.y, rect.width, rect.height]


def states_of(node, role, state_set):
    has = state_set.contains
    states = []
    if has(S.FOCUSED):
        states.append("focused")
    if has(S.CHECKED):
        states.append("checked")
    if has(S.INDETERMINATE):
        states.append("mixed")
    if not has(S.ENABLED) or not has(S.SENSITIVE):
        states.append("disabled")
    if has(S.SELECTED):
        states.append("selected")
    if has(S.EXPANDABLE):
        states.append("expanded" if has(S.EXPANDED) else "collapsed")
    if has(S.PRESSED):
        states.append("pressed")
    if role == "password text":
        states.append("password")
    return states


def value_of(node, role, name):
    if role == "password text":
        return None, False
    try:
        interfaces = node.get_interfaces()
        if "Text" in interfaces:
            count = Atspi.Text.get_character_count(node)
            if count > 0:
                content = Atspi.Text.get_text(node, 0, min(count, MAX_VALUE))
                if content != name:
                    return content, count > MAX_VALUE
        if "Value" in interfaces:
            number = Atspi.Value.get_current_value(node)
            return ("%d" % number) if float(number).is_integer() else ("%g" % number), False
    except Exception:
        pass
    return None, False


def windows():
    desktop = Atspi.get_desktop(0)
    found = []
    for index in range(desktop.get_child_count()):
        application = desktop.get_child_at_index(index)
        if application is None:
            continue
        try:
            count = application.get_child_count()
            app_name = application.get_name() or ""
        except Exception:
            continue
        for child_index in range(count):
            try:
                window = application.get_child_at_index(child_index)
                state_set = window.get_state_set()
                if not state_set.contains(S.SHOWING):
                    continue
                found.append((window, app_name, state_set.contains(S.ACTIVE)))
            except Exception:
                continue
    return found


def walk(window):
    elements = []
    visits = 0
    incomplete = False
    stack = [(window.get_child_at_index(i), 0, "") for i in reversed(range(window.get_child_count()))]
    while stack:
        node, depth, parent_name = stack.pop()
        visits += 1
        if node is None:
            continue
        if len(elements) >= MAX_ELEMENTS or visits > MAX_VISITS:
            incomplete = True
            break
        try:
            state_set = node.get_state_set()
            if not state_set.contains(S.SHOWING):
                continue
            role = node.get_role_name() or "unknown"
            name = (node.get_name() or "").strip()
            value, value_cut = value_of(node, role, name)
            actionable = any(state_set.contains(state) for state in ACTIONABLE)
            repeated = role == "label" and name == parent_name and value is None
            keep = not repeated and (name != "" or value is not None or actionable)
            if keep:
                elements.append([depth, role, name, value, value_cut,
                                 states_of(node, role, state_set), box_of(node)])
            next_depth = depth + 1 if keep else depth
            if next_depth > MAX_DEPTH:
                continue
            count = node.get_child_count()
            for index in reversed(range(count)):
                stack.append((node.get_child_at_index(index), next_depth, name if keep else parent_name))
        except Exception:
            continue
    return elements, incomplete


found = []
for attempt in range(10):
    found = windows()
    if found:
        break
    time.sleep(0.15)
if not found:
    print(json.dumps({"error": "no-window"}))
    sys.exit(0)
active = [entry for entry in found if entry[2]]
window, application, focused = (active[-1] if active else found[0])
elements, incomplete = walk(window)
others = [(entry[0].get_name() or "") for entry in found if entry[0] is not window]
print(json.dumps({
    "title": window.get_name() or "",
    "application": application,
    "focused": bool(focused),
    "box": box_of(window),
    "elements": elements,
    "incomplete": incomplete,
    "others": others[:20],
}, ensure_ascii=False))
`;
