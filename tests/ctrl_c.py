"""A real Ctrl-C, sent from a tool while the main thread waits for the calls to finish.

A SIGINT's Python handler runs wherever the main thread happens to be. Sent while it still submits
the calls, it can land inside a garbage-collector callback (hypothesis installs one), where the
KeyboardInterrupt is printed and dropped; the run then never sees it. Waiting until the main thread
is blocked in ``threading``'s wait makes the interrupt arrive where a person's Ctrl-C does.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time


def press_ctrl_c_while_the_main_thread_waits(patience: float = 5.0) -> None:
    main = threading.main_thread().ident
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        frame = sys._current_frames().get(main)
        if frame is not None and frame.f_code.co_name == "wait" and frame.f_code.co_filename == threading.__file__:
            break
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGINT)
