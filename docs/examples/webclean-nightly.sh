#!/usr/bin/env bash
# webclean's nightly extraction from cron (docs/scheduling.md): the run of one date,
# the day before today (UTC) or the date given, then the check of its summary and marker.
#
#   30 2 * * * /opt/webclean/docs/examples/webclean-nightly.sh >>/var/log/webclean-nightly.log 2>&1
#   docs/examples/webclean-nightly.sh 2026-11-30      # one date again, or a missed one
#
# Exits with the job's code (docs/output.md: 1 crashed, 2 usage error, 3 failed its
# policy), or 3 when the job exited 0 but check_run.py does not find the run passed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
run_date=${1:-$(date -u -d yesterday +%F)}
WEBCLEAN_HOME=${WEBCLEAN_HOME:-/opt/webclean}
SPARK_SUBMIT=${SPARK_SUBMIT:-spark-submit}
CHECK_PYTHON=${CHECK_PYTHON:-python3}  # with pyarrow
CRAWL=${CRAWL:-s3a://bucket/crawl}
OUTPUT=${OUTPUT:-s3a://bucket/clean}
ENV_ARCHIVE=${ENV_ARCHIVE:-s3a://bucket/envs/webclean-env.tar.gz}

echo "webclean-nightly: $run_date: started $(date -u +%FT%TZ)"
status=0
"$SPARK_SUBMIT" \
    --master yarn \
    --conf spark.pyspark.python=./env/bin/python \
    --properties-file "$WEBCLEAN_HOME/conf/spark-cluster.conf" \
    --archives "$ENV_ARCHIVE#env" \
    --name "webclean-extract-$run_date" \
    --deploy-mode cluster \
    "$WEBCLEAN_HOME/jobs/extract.py" \
    --input "$CRAWL/$run_date/warc.paths.gz" \
    --output "$OUTPUT" \
    --run-date "$run_date" \
    --max-error-share 0.05 \
    --fail-on-file-errors || status=$?
if [ "$status" -ne 0 ]; then
    echo "webclean-nightly: $run_date: the extract job exited $status" >&2
    exit "$status"
fi
"$CHECK_PYTHON" "$here/check_run.py" "$OUTPUT" "$run_date"
