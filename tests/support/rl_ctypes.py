# SPDX-License-Identifier: Apache-2.0
"""relayout's C API from Python (ctypes): what the Python tools share, the resampling oracles
(tests/oracle/resample_oracles.py) and the peer benchmark (bench/resample_peers.py).
Constants are the header's values (include/relayout.h)."""
import ctypes

RL_F32, RL_U8 = 1, 6
RL_ARG_SRC, RL_ARG_DST = 1, 17


class ExecArg(ctypes.Structure):
    """rl_exec_arg_t."""
    _fields_ = [("arg", ctypes.c_int), ("ptr", ctypes.c_void_p)]


class Library:
    """The shared library, its engines (one per thread count) and their streams; every call
    through check() raises RuntimeError with rl_last_error() on a failure."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.rl_last_error.restype = ctypes.c_char_p
        self.lib.rl_primitive_impl_name.restype = ctypes.c_char_p
        self.engines, self.streams = {}, {}

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.rl_last_error().decode())

    def engine(self, threads):
        """(engine, stream) with `threads` threads, made on first use."""
        if threads not in self.engines:
            e, s = ctypes.c_void_p(), ctypes.c_void_p()
            self.check(self.lib.rl_engine_create(ctypes.byref(e), threads))
            self.check(self.lib.rl_stream_create(ctypes.byref(s), e))
            self.engines[threads], self.streams[threads] = e, s
        return self.engines[threads], self.streams[threads]

    def md_tag(self, dims, dt, tag):
        md = ctypes.c_void_p()
        self.check(self.lib.rl_md_create_with_tag(ctypes.byref(md), len(dims),
                                                  (ctypes.c_int64 * len(dims))(*dims), dt,
                                                  tag.encode()))
        return md

    def execute(self, prim, threads, src, dst):
        """Runs prim on the stream of `threads` with RL_ARG_SRC / RL_ARG_DST pointers."""
        args = (ExecArg * 2)(ExecArg(RL_ARG_SRC, src), ExecArg(RL_ARG_DST, dst))
        self.check(self.lib.rl_primitive_execute(prim, self.engine(threads)[1], 2, args))
