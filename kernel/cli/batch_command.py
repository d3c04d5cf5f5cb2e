"""``hexkernel batch``: run a batch job (many maps, huge maps) on a dask cluster, resumably."""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path

from kernel.cli.arguments import positive_int
from kernel.cli.common import UserError


def register(commands) -> None:
    """Add the ``batch`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    batch = commands.add_parser(
        "batch", help="a batch job of many or huge maps on a dask cluster",
        description="Run the job file SPEC (TOML or JSON; docs/batch-jobs.md): for each map it names, compute "
                    "the arrays it asks for (visibility bits, hindrance matrix, vantage statistics, movement "
                    "matrices) block by block as dask tasks, into OUT/maps/NAME/arrays.zarr with a manifest. "
                    "Runs on an embedded local cluster unless --scheduler names an existing one. Rerun the same "
                    "command to resume an interrupted job: finished blocks are skipped.",
        epilog="example: hexkernel batch sweep.toml --out results --workers 2")
    batch.add_argument("spec", metavar="SPEC", help="the job file (.toml or .json)")
    batch.add_argument("--out", required=True, metavar="DIR", help="output folder (created; resumed if it holds "
                                                                    "this job's unfinished results)")
    batch.add_argument("--scheduler", metavar="ADDRESS",
                       help="address of an existing dask scheduler (tcp://host:8786), used as it is")
    batch.add_argument("--workers", type=positive_int, metavar="N",
                       help="worker processes of the embedded local cluster (default: one per core)")
    batch.add_argument("--threads-per-task", type=positive_int, default=1, metavar="N",
                       help="numba threads per task (default 1: the workers are the parallelism; a huge map on "
                            "one machine used less CPU as one worker with every core)")
    batch.add_argument("--connect-timeout", type=positive_int, default=10, metavar="SECONDS",
                       help="how long to wait for --scheduler (default: %(default)s s)")
    batch.add_argument("--quiet", action="store_true",
                       help="no progress bar (dask's, on stdout; shown only on a terminal)")
    batch.add_argument("--json", action="store_true", help="print the summary as JSON")
    batch.set_defaults(run=command_batch)


def command_batch(args) -> None:
    """Run the job file ``args.spec`` into ``args.out`` and print a summary.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from kernel.batch.run import BatchClusterError, run_batch
    from kernel.batch.spec import BatchJobError, read_job
    from kernel.batch.storage import BatchOutputError

    if args.scheduler is not None and args.workers is not None:
        raise UserError("--workers is given with --scheduler: expected only one (an existing cluster keeps "
                        "its own workers)")
    try:
        job = read_job(args.spec)
        summary = run_batch(job, args.out, scheduler=args.scheduler, workers=args.workers,
                            progress=not args.quiet and not args.json and sys.stdout.isatty(),
                            connect_timeout=args.connect_timeout, threads_per_task=args.threads_per_task)
    except (BatchJobError, BatchClusterError, BatchOutputError) as error:
        raise UserError(" ".join(str(error).split())) from None
    except OSError as error:  # the file it names (a map source, a block), else the output folder
        kept = error.errno in (errno.ENOSPC, errno.EDQUOT) and any(Path(args.out).glob("maps/*/done/*/*.json"))
        resume = " (its finished blocks are kept: run it again to resume)" if kept else ""
        raise UserError(f"{error.filename or args.out}: {error.strerror or error}{resume}") from None
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{summary['maps']} maps, {summary['blocks']} blocks: {summary['computed']} computed, "
              f"{summary['skipped']} already done, in {summary['seconds']:.1f} s; results in {args.out}")
