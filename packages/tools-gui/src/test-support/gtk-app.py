"""A tiny GTK 3 app for tools-gui's accessibility tests, run by Debian's /usr/bin/python3
(python3-gi, gir1.2-gtk-3.0) under Xvfb; GTK 3 exposes its widgets over AT-SPI.

    python3 gtk-app.py WIDTH HEIGHT

The window fills the display at +0+0. At fixed places: an entry "Name" at (20, 20) 240x32, an
"Apply" button at (280, 20), a "Remember me" check box at (20, 80), a "Locked" button that is
disabled at (280, 80), and a password entry (holding "hunter2-secret") at (20, 140). Apply sets
the window title to "agentool-gtk: applied <entry text>"; the check box sets it to
"agentool-gtk: remember <True|False>".
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

width, height = int(sys.argv[1]), int(sys.argv[2])
window = Gtk.Window(title="agentool-gtk: ready")
window.set_default_size(width, height)
window.move(0, 0)
layout = Gtk.Fixed()

entry = Gtk.Entry()
entry.set_size_request(240, 32)
entry.get_accessible().set_name("Name")
layout.put(entry, 20, 20)

apply_button = Gtk.Button(label="Apply")
apply_button.set_size_request(100, 32)
apply_button.connect(
    "clicked", lambda _: window.set_title("agentool-gtk: applied " + entry.get_text())
)
layout.put(apply_button, 280, 20)

remember = Gtk.CheckButton(label="Remember me")
remember.connect(
    "toggled", lambda button: window.set_title("agentool-gtk: remember %s" % button.get_active())
)
layout.put(remember, 20, 80)

locked = Gtk.Button(label="Locked")
locked.set_sensitive(False)
layout.put(locked, 280, 80)

password = Gtk.Entry()
password.set_visibility(False)
password.set_text("hunter2-secret")
password.set_size_request(240, 32)
layout.put(password, 20, 140)

window.add(layout)
window.connect("destroy", Gtk.main_quit)
window.show_all()
entry.grab_focus()
Gtk.main()
