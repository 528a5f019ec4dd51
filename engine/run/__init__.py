"""The run pipeline: many puzzles, one seed at a time, for ``gen`` and ``batch`` alike.

A ``job`` is one seed's work (generate, grade when a level is wanted, make store entries
when a store takes them), plain data that crosses to any worker. An ``executor`` runs it
for seed after seed and yields the results in seed order: in this process, in a local
pool of worker processes (``pool``), or on a Dask cluster. A ``sink`` takes each result:
standard output, a JSON Lines or line-format file (``outfile``: locked, read back) that
``--resume`` goes on with (``resume``), the store. ``pipeline`` drives the three, with
the search for a level and the progress bar (``progress``). Every engine, in the command
and in each worker, is made by ``factory``; the record's fields are
``puzzle_engine.record``'s.

Nothing is imported here, so that a worker importing ``run.job`` loads only what it needs.
"""
