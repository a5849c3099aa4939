"""make image and make image-check: the box's SD card image, from Debian bookworm's packages and PyPI.

    build    the command `make image`: the stages, each cached in $IMAGE_CACHE, and the card file
    root     the root file system: debootstrap, Debian's kernel and the Pi firmware, then deploy/install.sh
    card     the files the build writes into the root and the boot partition (pure text)
    layout   the partition table and the sizes (pure)
    hosttools  Debian's packages the build and the check run on this machine
    check    the command `make image-check`: the image booted in qemu-system-aarch64 -M virt
    extras   what the check adds to its copy at run time (an initramfs appended, in RAM only)
"""
