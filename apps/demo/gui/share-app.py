"""Tally's share calculator: the demo's GUI app, run by Debian's /usr/bin/python3 (python3-tk)
under the Xvfb display the demo's gui family starts.

    python3 share-app.py WIDTH HEIGHT

The window fills the display at +0+0 (there is no window manager). Two fields, Part (at
120,20 200x30) and Whole (120,70 200x30), a Share button (120,120 100x30) and the result
(120,170 300x40). Share (or Return in a field) computes part / whole as a percentage, shows it on
a pure green (#00ff00) label and in the window title: "Tally share: 25%". A field that is not a
number shows "enter two numbers" on grey.
"""
import sys
import tkinter as tk

width, height = int(sys.argv[1]), int(sys.argv[2])
root = tk.Tk()
root.title("Tally share: ready")
root.geometry(f"{width}x{height}+0+0")
root.configure(background="#c0c0c0")
font = ("TkFixedFont", 14)

tk.Label(root, text="Part", background="#c0c0c0", font=font).place(x=20, y=20, height=30)
part = tk.Entry(root, font=font)
part.place(x=120, y=20, width=200, height=30)
tk.Label(root, text="Whole", background="#c0c0c0", font=font).place(x=20, y=70, height=30)
whole = tk.Entry(root, font=font)
whole.place(x=120, y=70, width=200, height=30)
result = tk.Label(root, text="", background="#c0c0c0", font=font)
result.place(x=120, y=170, width=300, height=40)


def share(_event=None):
    try:
        value = float(part.get()) / float(whole.get()) * 100
    except (ValueError, ZeroDivisionError):
        result.configure(text="enter two numbers", background="#c0c0c0")
        return
    text = f"{value:.0f}%"
    result.configure(text=f"share: {text}", background="#00ff00")
    root.title(f"Tally share: {text}")


tk.Button(root, text="Share", font=font, command=share).place(x=120, y=120, width=100, height=30)
part.bind("<Return>", share)
whole.bind("<Return>", share)
root.mainloop()
