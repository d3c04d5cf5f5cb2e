"""Scheduler addresses and handshakes: a silent listener, a wrong answer, another protocol or a malformed
address end in one line within the connect timeout, never in a hang or a traceback."""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time

import pytest

from kernel.batch.run import BatchClusterError, probe_scheduler, scheduler_endpoint


def _listener(answer: bytes | None):
    """A TCP listener on a free port that accepts and sends ``answer`` (None: nothing, ever)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    return server, f"tcp://127.0.0.1:{server.getsockname()[1]}"


@pytest.mark.parametrize("answer, message", [
    (None, r"no answer within 1 s"),
    (b"\xff" * 8, r"it answered with a message of 18446744073709551615 bytes, not a dask handshake"),
    (struct.pack("<Q", 100) + b"x" * 10, r"no answer within 1 s"),
    (b"HTTP/1.1", r"it answered with a message of \d+ bytes"),
], ids=["silent", "huge-frame", "short-frame", "http"])
def test_a_listener_that_is_no_scheduler_is_refused_within_the_timeout(answer, message):
    server, address = _listener(answer)
    try:
        start = time.monotonic()
        with pytest.raises(BatchClusterError, match=rf"cannot reach the dask scheduler at '{address}' \({message}"):
            probe_scheduler(address, 1)
        assert time.monotonic() - start < 5
    finally:
        server.close()


@pytest.mark.parametrize("address, message", [
    ("tls://127.0.0.1:8786", r"uses tls://: expected tcp://HOST:PORT"),
    ("ucx://127.0.0.1:8786", r"uses ucx://: expected tcp://HOST:PORT"),
    ("inproc://x", r"uses inproc://"),
    ("garbage", r"'garbage' is not tcp://HOST:PORT"),
    ("tcp://:8786", r"is not tcp://HOST:PORT"),
    ("tcp://host:0", r"is not tcp://HOST:PORT: expected a host name or IP address and a port 1..65535"),
    ("tcp://host:99999999999", r"is not tcp://HOST:PORT"),
    ("tcp://a b:1", r"is not tcp://HOST:PORT"),
])
def test_a_malformed_address_is_refused_before_connecting(address, message):
    with pytest.raises(BatchClusterError, match=message):
        scheduler_endpoint(address)


def test_good_addresses_parse():
    assert scheduler_endpoint("tcp://10.1.2.3:8786") == ("10.1.2.3", 8786)
    assert scheduler_endpoint("localhost:1") == ("localhost", 1)
    assert scheduler_endpoint("tcp://[::1]:8786") == ("::1", 8786)


def test_the_command_line_gives_one_line_for_a_silent_scheduler(tmp_path):
    server, address = _listener(None)
    job = tmp_path / "job.toml"
    job.write_text("[[maps]]\nsource = '71'\n")
    try:
        start = time.monotonic()
        result = subprocess.run([sys.executable, "-m", "kernel.cli", "batch", str(job), "--out", str(tmp_path / "o"),
                                 "--scheduler", address, "--connect-timeout", "2"], capture_output=True, text=True,
                                timeout=120)
        assert time.monotonic() - start < 60
    finally:
        server.close()
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"cannot reach the dask scheduler at '{address}' (no answer within 2 s)" in result.stderr
    assert not (tmp_path / "o").exists()


def test_a_real_scheduler_passes_the_probe():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None, silence_logs=50) as local:
        assert local.scheduler_address.startswith("tcp://")
        probe_scheduler(local.scheduler_address, 5)
        with distributed.Client(local.scheduler_address, timeout=5) as client:
            assert client.submit(lambda: 6 * 7).result() == 42


def test_ctrl_c_during_a_batch_on_the_embedded_cluster_is_one_line(tmp_path):
    import signal

    job = tmp_path / "job.toml"
    job.write_text("[job]\ncompute = ['visibility', 'hindrance']\nblock_rows = 8\n[[maps]]\n"
                   "random = { ruleset = 'asl', columns = 44, rows = 20, seed = 3, count = 2 }\n")
    out = tmp_path / "out"
    run = subprocess.Popen([sys.executable, "-m", "kernel.cli", "batch", str(job), "--out", str(out), "--workers", "2",
                            "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not list(out.glob("maps/*/done/*/*.json")):
        assert time.monotonic() < deadline and run.poll() is None, run.communicate()
        time.sleep(0.01)
    run.send_signal(signal.SIGINT)
    _, error = run.communicate(timeout=120)
    assert run.returncode == 130, error
    assert "Task exception was never retrieved" not in error and "Traceback" not in error, error
    assert error.strip().splitlines() == ["hexkernel batch: interrupted"], error


def test_a_handshake_claiming_huge_frames_is_one_error_not_an_allocation(tmp_path):
    import kernel

    answer = struct.pack("<Q", 16) + struct.pack("<Q", 2 ** 62) + struct.pack("<Q", 2 ** 62)
    server, address = _listener(answer)
    job = tmp_path / "job.toml"
    job.write_text("[[maps]]\nsource = '71'\n")
    try:
        with pytest.raises(BatchClusterError, match=rf"cannot reach the dask scheduler at '{address}' \("):
            kernel.run_batch(job, tmp_path / "out", scheduler=address, connect_timeout=3)
    finally:
        server.close()
    assert not (tmp_path / "out").exists()
