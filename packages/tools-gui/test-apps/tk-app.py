"""A tiny Tk app for tools-gui's tests, run by Debian's /usr/bin/python3 under Xvfb.

    python3 tk-app.py WIDTH HEIGHT

The window fills the display at +0+0 (there is no window manager). Top row: an entry, an
"Apply" button and a label. Apply puts the entry's text into the label, paints the label pure
green (#00ff00) and sets the window title to "agentool-test: applied <text>". Below: a slider
(0-100) whose moves set the title to "agentool-test: slider <value>"; then a canvas with a red
square (#ff0000) at canvas (200, 40)-(220, 60); a click on the canvas sets the title to
"agentool-test: canvas <x_root> <y_root>" (display pixels).
"""
import sys
import tkinter as tk

width, height = int(sys.argv[1]), int(sys.argv[2])
root = tk.Tk()
root.title("agentool-test: ready")
root.geometry(f"{width}x{height}+0+0")
root.configure(background="#c0c0c0")

row = tk.Frame(root, background="#c0c0c0")
row.pack(side="top", fill="x")
entry = tk.Entry(row, width=20, font=("TkFixedFont", 12))
entry.pack(side="left", padx=10, pady=10)
label = tk.Label(row, text="(empty)", width=24, background="#c0c0c0", font=("TkFixedFont", 12))


def apply():
    text = entry.get()
    label.configure(text=text, background="#00ff00")
    root.title(f"agentool-test: applied {text}")


button = tk.Button(row, text="Apply", command=apply)
button.pack(side="left", padx=10)
label.pack(side="left", padx=10)


def slid(value):
    root.title(f"agentool-test: slider {value}")


slider = tk.Scale(root, from_=0, to=100, orient="horizontal", length=400, command=slid)
slider.pack(side="top", anchor="w", padx=10)

canvas = tk.Canvas(root, background="#ffffff", highlightthickness=0, borderwidth=0)
canvas.pack(side="top", fill="both", expand=True)
canvas.create_rectangle(200, 40, 220, 60, fill="#ff0000", outline="#ff0000")
canvas.bind(
    "<Button-1>", lambda event: root.title(f"agentool-test: canvas {event.x_root} {event.y_root}")
)

root.mainloop()
