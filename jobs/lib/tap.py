"""TAP devices for the labs' user-space wires (tapfwd.py, delaypath.py): this kernel has no netem, so delay, loss and
rate limits are applied by a process that reads whole Ethernet frames from one TAP device and writes them to another.
"""
import fcntl
import os
import struct

TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000


def open_tap(name):
    """A non-blocking file descriptor of the TAP device `name` (created if needed), frames without packet info."""
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    os.set_blocking(fd, False)
    return fd
