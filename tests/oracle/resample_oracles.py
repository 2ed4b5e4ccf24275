#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The oracle stage of relayout's antialiased and area resampling.

LINEAR_ANTIALIAS against Pillow's Image.resize(BILINEAR) and AREA against OpenCV's
cv2.resize(INTER_AREA), on a fixed set of generated images and sizes (down by x1.3 to x8, up,
and mixed), through the shared library's C API (ctypes):
  - u8 RGB images (nhwc -> nhwc u8): within 1 u8 step of the library's own u8 result;
  - float images (Pillow mode 'F', OpenCV float32): within 2e-4 of 255-scaled values, i.e.
    the same float math up to f32 rounding;
  - channel mixes (rl_attr_set_channel_mix) in the same pass: BGR against the libraries'
    resize of the reversed image, gray (BT.601 luma) against Pillow's convert('L') and
    OpenCV's cvtColor(RGB2GRAY) followed by their resize (u8), and against the resize of
    the luma computed in float32 (float, within 2e-4 as above).
Prints, per oracle and kind, the number of cases, the largest difference and the share of
elements that differ; exits 1 when a case is outside its bound.

  resample_oracles.py LIBRELAYOUT.so {pillow|opencv}

Run it with Debian's /usr/bin/python3 and python3-pil, python3-opencv, python3-numpy.
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from rl_ctypes import RL_F32, RL_U8, Library  # noqa: E402

LINEAR_ANTIALIAS, AREA = 3, 4


class Relayout(Library):
    """The few C calls a resampling needs, on a 2-thread engine."""

    def md(self, dims, dt, tag):
        return self.md_tag(dims, dt, tag)

    def attr(self, mix):
        """An attr holding the channel mix `mix` (dst channels x src channels), or None."""
        if mix is None:
            return None
        attr = ctypes.c_void_p()
        self.check(self.lib.rl_attr_create(ctypes.byref(attr)))
        weights = np.ascontiguousarray(mix, dtype=np.float32)
        self.check(self.lib.rl_attr_set_channel_mix(attr, mix.shape[0], mix.shape[1],
                                                    weights.ctypes.data_as(ctypes.c_void_p)))
        return attr

    def resample(self, alg, image, out_h, out_w, mix=None):
        """image: H x W x C (u8 or f32) -> out_h x out_w x C' of the same type (nhwc); C' = C,
        or the rows of the channel mix `mix` (C' x C)."""
        h, w, c = image.shape
        oc = c if mix is None else mix.shape[0]
        dt = RL_U8 if image.dtype == np.uint8 else RL_F32
        src = self.md((1, c, h, w), dt, "nhwc")
        dst = self.md((1, oc, out_h, out_w), dt, "nhwc")
        prim = ctypes.c_void_p()
        attr = self.attr(mix)
        self.check(self.lib.rl_resampling_create(ctypes.byref(prim), self.engine(2)[0], alg, src,
                                                 dst, attr))
        self.lib.rl_attr_destroy(attr)
        image = np.ascontiguousarray(image)
        out = np.zeros((out_h, out_w, oc), dtype=image.dtype)
        self.execute(prim, 2, image.ctypes.data, out.ctypes.data)
        name = self.lib.rl_primitive_impl_name(prim).decode()
        for obj, fn in ((prim, self.lib.rl_primitive_destroy), (src, self.lib.rl_md_destroy),
                        (dst, self.lib.rl_md_destroy)):
            fn(obj)
        return out, name


LUMA = np.array([[0.299, 0.587, 0.114]], dtype=np.float32)  # ITU-R BT.601, as both libraries
BGR = np.eye(3, dtype=np.float32)[::-1].copy()


def luma_f32(img):
    """The luma of a u8 RGB image in float32, summed in the library's order."""
    f = img.astype(np.float32)
    return LUMA[0, 0] * f[:, :, 0] + LUMA[0, 1] * f[:, :, 1] + LUMA[0, 2] * f[:, :, 2]


def images():
    """Fixed test images (RGB u8): smooth ramps, a sinusoid, sharp edges and noise, at an even,
    an odd and a wide size."""
    rng = np.random.default_rng(22)
    out = []
    for h, w in ((480, 640), (250, 333), (180, 1020)):
        y, x = np.mgrid[0:h, 0:w].astype(np.float64)
        ramp = 255.0 * x / (w - 1)
        wave = 127.5 + 127.5 * np.sin(x / 7.0) * np.cos(y / 11.0)
        checks = 255.0 * (((x // 9) + (y // 5)) % 2)
        noise = rng.integers(0, 256, size=(h, w)).astype(np.float64)
        img = np.stack([ramp, 0.5 * wave + 0.5 * checks, np.where(x > w / 3, noise, wave)], -1)
        out.append(np.clip(np.rint(img), 0, 255).astype(np.uint8))
    return out


def sizes(h, w):
    """Down by x1.3 to x8 (uniform and not), exact integer factors, up, and mixed."""
    out = [(round(h / f), round(w / f)) for f in (1.3, 2, 2.5, 3, 4, 5.7, 8)]
    out += [(224, 224), (h // 3, w // 2), (round(h * 1.5), round(w * 1.5)),
            (h * 2, w * 2), (round(h * 1.7), round(w / 1.7)), (h, w)]
    return [(max(a, 1), max(b, 1)) for a, b in out]


class Stats:
    def __init__(self, label, bound):
        self.label, self.bound = label, bound
        self.cases = self.failed = self.elems = self.differ = 0
        self.largest = 0.0

    def add(self, got, want, what):
        d = np.abs(got.astype(np.float64) - want.astype(np.float64))
        self.cases += 1
        self.elems += d.size
        self.differ += int(np.count_nonzero(d))
        m = float(d.max())
        self.largest = max(self.largest, m)
        if m > self.bound:
            self.failed += 1
            print(f"  FAIL {self.label} {what}: largest difference {m:.6g} > {self.bound}")

    def report(self, impl):
        share = 100.0 * self.differ / max(self.elems, 1)
        print(f"{self.label}: {self.cases} cases, largest difference {self.largest:.6g} "
              f"(bound {self.bound}), {share:.2f}% of elements differ [{impl}]")


def run_pillow(rl):
    from PIL import Image

    def resize(arr, mode, oh, ow):
        return np.asarray(Image.fromarray(arr, mode).resize((ow, oh), Image.BILINEAR))

    u8 = Stats("pillow BILINEAR u8 RGB", 1)
    f32 = Stats("pillow BILINEAR float (mode F)", 2e-4)
    bgr = Stats("pillow BILINEAR u8, mix RGB -> BGR", 1)
    gray = Stats("pillow convert('L') + BILINEAR u8, mix RGB -> gray", 1)
    grayf = Stats("pillow BILINEAR float luma, mix RGB -> gray", 2e-4)
    impl = ""
    for img in images():
        h, w, _ = img.shape
        for oh, ow in sizes(h, w):
            what = f"{w}x{h} -> {ow}x{oh}"
            got, impl = rl.resample(LINEAR_ANTIALIAS, img, oh, ow)
            u8.add(got, resize(img, "RGB", oh, ow), what)
            chan = img[:, :, 0].astype(np.float32)
            got, _ = rl.resample(LINEAR_ANTIALIAS, chan[:, :, None], oh, ow)
            f32.add(got[:, :, 0], resize(chan, "F", oh, ow), what)
            got, _ = rl.resample(LINEAR_ANTIALIAS, img, oh, ow, BGR)
            bgr.add(got, resize(np.ascontiguousarray(img[:, :, ::-1]), "RGB", oh, ow), what)
            got, _ = rl.resample(LINEAR_ANTIALIAS, img, oh, ow, LUMA)
            want = np.asarray(Image.fromarray(img, "RGB").convert("L").resize((ow, oh),
                                                                             Image.BILINEAR))
            gray.add(got[:, :, 0], want, what)
            got, _ = rl.resample(LINEAR_ANTIALIAS, img.astype(np.float32), oh, ow, LUMA)
            grayf.add(got[:, :, 0], resize(luma_f32(img), "F", oh, ow), what)
    for s in (u8, f32, bgr, gray, grayf):
        s.report(impl)
    return u8.failed + f32.failed + bgr.failed + gray.failed + grayf.failed


def run_opencv(rl):
    import cv2

    def resize(arr, oh, ow):
        return cv2.resize(arr, (ow, oh), interpolation=cv2.INTER_AREA)

    u8 = Stats("opencv INTER_AREA u8 RGB", 1)
    f32 = Stats("opencv INTER_AREA float32 RGB", 2e-4)
    bgr = Stats("opencv cvtColor(RGB2BGR) + INTER_AREA u8, mix RGB -> BGR", 1)
    gray = Stats("opencv cvtColor(RGB2GRAY) + INTER_AREA u8, mix RGB -> gray", 1)
    grayf = Stats("opencv INTER_AREA float32 luma, mix RGB -> gray", 2e-4)
    impl = ""
    for img in images():
        h, w, _ = img.shape
        for oh, ow in sizes(h, w):
            what = f"{w}x{h} -> {ow}x{oh}"
            got, impl = rl.resample(AREA, img, oh, ow)
            u8.add(got, resize(img, oh, ow), what)
            imgf = img.astype(np.float32)
            got, _ = rl.resample(AREA, imgf, oh, ow)
            f32.add(got, resize(imgf, oh, ow), what)
            got, _ = rl.resample(AREA, img, oh, ow, BGR)
            bgr.add(got, resize(cv2.cvtColor(img, cv2.COLOR_RGB2BGR), oh, ow), what)
            got, _ = rl.resample(AREA, img, oh, ow, LUMA)
            gray.add(got[:, :, 0], resize(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), oh, ow), what)
            got, _ = rl.resample(AREA, imgf, oh, ow, LUMA)
            grayf.add(got[:, :, 0], resize(luma_f32(img), oh, ow), what)
    for s in (u8, f32, bgr, gray, grayf):
        s.report(impl)
    return u8.failed + f32.failed + bgr.failed + gray.failed + grayf.failed


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("pillow", "opencv"):
        print(__doc__)
        return 2
    rl = Relayout(sys.argv[1])
    failed = run_pillow(rl) if sys.argv[2] == "pillow" else run_opencv(rl)
    print(f"resample_oracles {sys.argv[2]}: {'FAILED' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
