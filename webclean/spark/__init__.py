"""The Spark glue: the jobs of jobs/ run webclean's library over a cluster.

One concern a module. Those that need only pyarrow import no pyspark, and they and
``import webclean.spark`` itself run without a JVM:

- ``inputs``: the input arguments (files, folders, globs, listing files) expanded into
  input files with a format, large WARCs cut into byte ranges, and packed into
  partitions (pyarrow only);
- ``readers``: one reader per format (WARC, HTML, JSON Lines, Parquet) of a file's
  page records (pyarrow only);
- ``rows``: a page record extracted into its output row, and the rows' schema (pyarrow only);
- ``session``: the SparkSession, its logging, and webclean shipped to the executors;
- ``extract_job``, ``train_job``, ``lexicon_job``: the library side of jobs/extract.py,
  jobs/train.py and jobs/lexicon.py;
- ``job``: what those three scripts share: their parser, one-line errors and session.

A run of the extract job, in order:

1. ``find_inputs`` expands the input arguments (files, directories, globs, listing
   files) into files with a format, on the driver; a missing input fails here, and
   the files of folders and globs that are not of the format are skipped and counted.
2. The paths, never the contents, are packed into partitions of similar byte size,
   so each Python worker streams its own files (WARCs through ``webclean.warc``); a
   WARC larger than ``input.task_bytes`` is cut into byte ranges of about that size,
   each read by a task of its own (``webclean.warc_ranges``).
3. The model, the configuration and the packed paths are broadcast once; each Python
   worker loads a broadcast once and reuses it for every task it runs.
4. ``mapInArrow`` over ``range`` turns partition i's paths into rows of extracted
   pages, a bounded batch at a time. Every page record gives one row with its status;
   a file that could not be read to its end adds one row with status ``truncated``
   that says where it stopped.
5. The rows are written as Parquet partitioned by ``run_date``, overwriting only that
   partition, in the job's one Spark job; each task reports what its partition read
   and wrote, keyed by partition so that a task run twice is counted once, and from
   those counts a summary is printed and written to ``_summary/`` beside them.
6. The failure policy (webclean.policy) judges the counts: a run that passes gets a
   ``_SUCCESS`` marker in its partition.
"""
