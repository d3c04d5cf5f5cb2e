"""Batch jobs: many maps and huge maps on a dask cluster, with resumable results on disk.

A job file (TOML or JSON, ``docs/batch-jobs.md``) names maps and what to
compute for each; :func:`kernel.batch.run.run_batch` splits every map into
row blocks, runs one dask task per block (on an embedded local cluster by
default, or on an existing one) and writes each block atomically into a
chunked zarr array, so a rerun resumes where the last run stopped.

* :mod:`kernel.batch.spec`: reading and checking the job file.
* :mod:`kernel.batch.sources`: loading a map from its description, its
  content digest, and the worker-side cache of compiled boards.
* :mod:`kernel.batch.blocks`: what one task computes for one row block.
* :mod:`kernel.batch.storage`: the output folder, the atomic block writes,
  the completion markers and reading the results back.
* :mod:`kernel.batch.chunks`: a block's chunk file (written atomically, read
  within bounds) and its identity digest.
* :mod:`kernel.batch.lock`: one run at a time per output folder.
* :mod:`kernel.batch.run`: the task graph on a dask cluster and the manifest.
"""
