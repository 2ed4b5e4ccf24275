#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 22's workloads: a camera frame (u8 RGB or RGBA, interleaved) into a model's normalised
f32 NCHW tensor, relayout against its peers in one process, in the same run.

  W1  1920x1080 -> 224x224, stretched, ImageNet mean/std
  W2  1920x1080 -> 640x640 letterbox (the image 640x360 in rows 140..500), pad 114, x/255
  W3  1920x1080 -> shorter side 256, centre crop 224 (relayout: one primitive on the crop of
      the source that maps onto the 224x224 window), ImageNet mean/std
  W4  640x480 -> 224x224, stretched, ImageNet mean/std

Contenders, run alternately (each iteration times every contender once, in turn), medians:
  relayout   the shared library through ctypes: one rl_resampling primitive per workload and
             algorithm (nearest, linear, linear-aa, area), on engines of 1 and 2 threads; W2
             also fills the border rows of its tensor each time (numpy)
  cv2-linear cv2.resize(INTER_LINEAR) + cv2.dnn.blobFromImage(1/255) + numpy (x - mean) / std
  cv2-area   the same with INTER_AREA
  pillow     Image.fromarray + resize(BILINEAR) + numpy normalise and HWC -> CHW
  memcpy     the physical limit: one memcpy of (bytes read + bytes written) / 2, i.e. a copy
             touching as many bytes as the job must (the source it reads once, the tensor)
OpenCV runs on one thread (cv2.setNumThreads(1)); an RGBA frame goes through
cv2.cvtColor(RGBA2RGB) first for OpenCV and drops its alpha in numpy for Pillow. relayout
reads RGBA as a 3-channel view with a 4-byte pixel pitch.

  resample_peers.py [--lib PATH] [--iters N] [--rgba] [--workloads W1,W2] [--check] [--markdown]

--check also compares each relayout tensor with its library's (linear with cv2-linear,
linear-aa with Pillow, area with cv2-area) and fails beyond 1.5 u8 steps after normalising;
exits 77 (ctest's skip) when numpy, cv2 or PIL is missing. Run with Debian's /usr/bin/python3.
"""
import argparse
import ctypes
import os
import statistics
import sys
import time

try:
    import cv2
    import numpy as np
    from PIL import Image
except ImportError as err:  # the smoke test skips without the peers
    print(f"resample_peers: skipped, {err}")
    sys.exit(77)

ALGS = {"nearest": 1, "linear": 2, "linear-aa": 3, "area": 4}
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "support"))
from rl_ctypes import RL_ARG_DST, RL_ARG_SRC, RL_F32, RL_U8, Library  # noqa: E402


class Relayout(Library):
    """The C calls a resampling job needs."""

    def md_strides(self, dims, dt, strides):
        md = ctypes.c_void_p()
        self.check(self.lib.rl_md_create_with_strides(
            ctypes.byref(md), 4, (ctypes.c_int64 * 4)(*dims), dt, (ctypes.c_int64 * 4)(*strides)))
        return md

    def submemory(self, parent, dims, offsets):
        md = ctypes.c_void_p()
        self.check(self.lib.rl_md_create_submemory(ctypes.byref(md), parent,
                                                   (ctypes.c_int64 * 4)(*dims),
                                                   (ctypes.c_int64 * 4)(*offsets)))
        return md

    def normalise_attr(self, imagenet):
        """x / 255, then (v - mean) / std per channel when imagenet (docs/resampling.md)."""
        attr = ctypes.c_void_p()
        self.check(self.lib.rl_attr_create(ctypes.byref(attr)))
        self._keep = [np.array([1.0 / 255.0], np.float32), STD.copy(), (-MEAN / STD)]
        f = ctypes.POINTER(ctypes.c_float)
        self.check(self.lib.rl_attr_set_scales(attr, RL_ARG_SRC, 0,
                                               self._keep[0].ctypes.data_as(f)))
        if imagenet:
            self.check(self.lib.rl_attr_set_scales(attr, RL_ARG_DST, 2,
                                                   self._keep[1].ctypes.data_as(f)))
            self.check(self.lib.rl_attr_set_zero_points_f32(
                attr, RL_ARG_DST, 2, self._keep[2].astype(np.float32).ctypes.data_as(f)))
        return attr

    def primitive(self, alg, src_md, dst_md, attr, threads):
        engine, _ = self.engine(threads)
        p = ctypes.c_void_p()
        self.check(self.lib.rl_resampling_create(ctypes.byref(p), engine, ALGS[alg], src_md,
                                                 dst_md, attr))
        return p



class Workload:
    """One job: its frame, its tensor, the source window it reads and the destination window
    it writes (the rest of the tensor is the letterbox border)."""

    def __init__(self, name, frame_hw, out_hw, crop=None, window=None, imagenet=True, pad=None):
        self.name, self.frame_hw, self.out_hw = name, frame_hw, out_hw
        fh, fw = frame_hw
        self.crop = crop or (0, 0, fh, fw)  # y, x, h, w of the source region
        self.window = window or (0, 0) + out_hw  # y, x, h, w of the tensor region
        self.imagenet, self.pad = imagenet, pad

    def bytes_touched(self, channels):
        _, _, h, w = self.crop
        return h * w * channels + 3 * self.out_hw[0] * self.out_hw[1] * 4


def workloads():
    side = 1080 * 224 // 256  # the source square that maps onto W3's 224x224 window
    return [
        Workload("W1", (1080, 1920), (224, 224)),
        Workload("W2", (1080, 1920), (640, 640), window=(140, 0, 360, 640), imagenet=False,
                 pad=114),
        Workload("W3", (1080, 1920), (224, 224),
                 crop=((1080 - side) // 2, (1920 - side) // 2, side, side)),
        Workload("W4", (480, 640), (224, 224)),
    ]


def frame(hw, channels, seed=22):
    """A camera-like frame: smooth gradients, texture and noise."""
    h, w = hw
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    base = 127.5 + 60 * np.sin(x / 37.0) * np.cos(y / 23.0) + 40 * np.sin((x + y) / 5.0)
    planes = [base + rng.normal(0, 12, (h, w)) + 30 * c for c in range(channels)]
    return np.ascontiguousarray(np.clip(np.stack(planes, -1), 0, 255).astype(np.uint8))


def relayout_job(rl, wl, alg, threads, img):
    """A callable running the job with relayout, and its tensor."""
    h, w, c = img.shape
    oh, ow = wl.out_hw
    parent = rl.md_strides((1, 3, h, w), RL_U8, (h * w * c, 1, w * c, c))
    cy, cx, ch, cw = wl.crop
    src = rl.submemory(parent, (1, 3, ch, cw), (0, 0, cy, cx))
    tensor_md = rl.md_tag((1, 3, oh, ow), RL_F32, "nchw")
    wy, wx, wh, ww = wl.window
    dst = rl.submemory(tensor_md, (1, 3, wh, ww), (0, 0, wy, wx))
    attr = rl.normalise_attr(wl.imagenet)
    p = rl.primitive(alg, src, dst, attr, threads)
    for obj in (parent, src, tensor_md, dst):
        rl.lib.rl_md_destroy(obj)
    rl.lib.rl_attr_destroy(attr)
    tensor = np.zeros((1, 3, oh, ow), np.float32)
    src_ptr, dst_ptr = img.ctypes.data, tensor.ctypes.data
    border = None if wl.pad is None else np.float32(wl.pad / 255.0)

    def run():
        if border is not None:
            tensor[:, :, :wy, :] = border
            tensor[:, :, wy + wh:, :] = border
        rl.execute(p, threads, src_ptr, dst_ptr)
        return tensor

    return run


def rgb_of(img):
    return img if img.shape[2] == 3 else cv2.cvtColor(img, cv2.COLOR_RGBA2RGB)


def normalise_blob(blob, wl):
    if wl.imagenet:
        blob -= MEAN[None, :, None, None]
        blob /= STD[None, :, None, None]
    return blob


def cv2_job(wl, interpolation, img):
    """cv2.resize + cv2.dnn.blobFromImage (x / 255) + numpy (x - mean) / std."""
    cy, cx, ch, cw = wl.crop
    wy, _, wh, ww = wl.window
    oh, ow = wl.out_hw

    def run():
        rgb = rgb_of(img)
        if wl.name == "W3":  # shorter side 256, then the centre crop
            h, w = rgb.shape[:2]
            s = 256 / min(h, w)
            small = cv2.resize(rgb, (round(w * s), round(h * s)), interpolation=interpolation)
            y0, x0 = (small.shape[0] - oh) // 2, (small.shape[1] - ow) // 2
            small = small[y0:y0 + oh, x0:x0 + ow]
        else:
            small = cv2.resize(rgb[cy:cy + ch, cx:cx + cw], (ww, wh), interpolation=interpolation)
        if wl.pad is not None:
            small = cv2.copyMakeBorder(small, wy, oh - wy - wh, 0, 0, cv2.BORDER_CONSTANT,
                                       value=(wl.pad,) * 3)
        return normalise_blob(cv2.dnn.blobFromImage(small, 1.0 / 255.0), wl)

    return run


def pillow_job(wl, img):
    """Image.fromarray + resize(BILINEAR) + numpy normalise, HWC -> CHW."""
    wy, _, wh, ww = wl.window
    oh, ow = wl.out_hw

    def run():
        pim = Image.fromarray(img[:, :, :3] if img.shape[2] == 4 else img)
        if wl.name == "W3":
            s = 256 / min(pim.size)
            pim = pim.resize((round(pim.size[0] * s), round(pim.size[1] * s)), Image.BILINEAR)
            x0, y0 = (pim.size[0] - ow) // 2, (pim.size[1] - oh) // 2
            pim = pim.crop((x0, y0, x0 + ow, y0 + oh))
        else:
            pim = pim.resize((ww, wh), Image.BILINEAR)
        x = np.asarray(pim, dtype=np.float32) / 255.0
        if wl.imagenet:
            x = (x - MEAN) / STD
        if wl.pad is not None:
            x = np.pad(x, ((wy, oh - wy - wh), (0, 0), (0, 0)), constant_values=wl.pad / 255.0)
        return np.ascontiguousarray(x.transpose(2, 0, 1))[None]

    return run


def memcpy_job(nbytes):
    src, dst = np.ones(nbytes, np.uint8), np.zeros(nbytes, np.uint8)
    return lambda: ctypes.memmove(dst.ctypes.data, src.ctypes.data, nbytes)


def contenders(rl, wl, img):
    jobs = {}
    for threads in (1, 2):
        for alg in ALGS:
            jobs[f"relayout {alg} {threads}t"] = relayout_job(rl, wl, alg, threads, img)
    jobs["cv2-linear"] = cv2_job(wl, cv2.INTER_LINEAR, img)
    jobs["cv2-area"] = cv2_job(wl, cv2.INTER_AREA, img)
    jobs["pillow"] = pillow_job(wl, img)
    jobs["memcpy"] = memcpy_job(wl.bytes_touched(img.shape[2]) // 2)
    return jobs


WARM_RUNS = 10


def time_alternating(jobs, iters):
    """Each iteration runs every job once, in turn; the median per job, in ms."""
    times = {name: [] for name in jobs}
    # warm: tables, pools, caches, and relayout's thread tuner (it settles in 9 executions)
    for job in jobs.values():
        for _ in range(WARM_RUNS):
            job()
    for _ in range(iters):
        for name, job in jobs.items():
            t0 = time.perf_counter_ns()
            job()
            times[name].append((time.perf_counter_ns() - t0) / 1e6)
    return {name: statistics.median(t) for name, t in times.items()}


def check(jobs, wl):
    """Each relayout tensor near its library's: within 1.5 u8 steps after normalising. Not
    W3: cropping the source then resizing puts the window a fraction of a pixel away from
    resizing then cropping whole pixels."""
    if wl.name == "W3":
        return 0
    pairs = {"linear": "cv2-linear", "linear-aa": "pillow", "area": "cv2-area"}
    step = 1.5 / 255.0 / (float(STD.min()) if wl.imagenet else 1.0)
    bad = 0
    for alg, peer in pairs.items():
        got, want = jobs[f"relayout {alg} 1t"]().copy(), jobs[peer]()
        d = float(np.abs(got - want).max())
        if d > step:
            print(f"  CHECK {wl.name} relayout {alg} vs {peer}: largest difference {d:.4g} "
                  f"> {step:.4g}")
            bad += 1
    return bad


def report(wl, med, markdown):
    mc = med["memcpy"]
    if markdown:
        for t in (1, 2):
            cells = []
            for alg in ALGS:
                ms = med[f"relayout {alg} {t}t"]
                peer = med["cv2-linear"] if alg in ("nearest", "linear") else min(
                    med["cv2-area"], med["pillow"])
                cells.append(f"{ms:.3f} ({peer / ms:.1f}x, {ms / mc:.1f})")
            print(f"| {wl.name} | {t} | " + " | ".join(cells) +
                  f" | {med['cv2-linear']:.3f} | {med['cv2-area']:.3f} | {med['pillow']:.3f}"
                  f" | {mc:.3f} |")
        return
    print(f"{wl.name}: memcpy {mc:.3f} ms, cv2-linear {med['cv2-linear']:.3f}, "
          f"cv2-area {med['cv2-area']:.3f}, pillow {med['pillow']:.3f}")
    for t in (1, 2):
        for alg in ALGS:
            ms = med[f"relayout {alg} {t}t"]
            print(f"  relayout {alg:9s} {t}t {ms:7.3f} ms  x{med['cv2-linear'] / ms:5.1f} "
                  f"cv2-linear  x{med['cv2-area'] / ms:5.1f} cv2-area  "
                  f"x{med['pillow'] / ms:5.1f} pillow  {ms / mc:4.1f} memcpy")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", default=os.path.join(HERE, "..", "build", "gcc", "librelayout.so"))
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--rgba", action="store_true", help="RGBA frames instead of RGB")
    ap.add_argument("--workloads", default="W1,W2,W3,W4")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="rows of docs/performance.md")
    ap.add_argument("--only", help="time just this contender (for a profiler), e.g. "
                    "'relayout linear 1t'")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    rl = Relayout(a.lib)
    channels = 4 if a.rgba else 3
    bad = 0
    for wl in workloads():
        if wl.name not in a.workloads.split(","):
            continue
        img = frame(wl.frame_hw, channels)
        jobs = contenders(rl, wl, img)
        if a.only:
            print(wl.name, a.only, time_alternating({a.only: jobs[a.only]}, a.iters))
            continue
        if a.check:
            bad += check(jobs, wl)
        report(wl, time_alternating(jobs, a.iters), a.markdown)
    if a.check:
        print(f"resample_peers check: {'FAILED' if bad else 'ok'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
