"""The sensor pod's program: arm the watchdog, then run the pod's loop, feeding it every pass.

A pass that hangs (a library stuck in a loop: adafruit_hx711 waiting for a DOUT wire that came
loose) stops the feeding and the watchdog restarts the pod; so does a crash, after its
traceback is printed on the console.
The pod then says hello with reset=watchdog, and the host sets it up again.
"""

import microcontroller
import pod_main
import watchdog

WATCHDOG_S = 8
"""The RP2040's watchdog can wait at most about 8.3 s."""

dog = microcontroller.watchdog
dog.timeout = WATCHDOG_S
dog.mode = watchdog.WatchDogMode.RESET
try:
    pod = pod_main.Pod.on_board()
    while True:
        pod.step()
        dog.feed()
except Exception as error:
    pod_main.crashed(error)
