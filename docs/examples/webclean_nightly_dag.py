"""webclean's nightly extraction as an Airflow DAG (docs/scheduling.md).

Each night at 02:30 UTC, the run of the day before, ``{{ ds }}``: spark-submit of
jobs/extract.py on the cluster with the packed environment, then a check that the run's
summary says it passed and that its _SUCCESS marker is there (check_run.py). Put this
file and check_run.py in the DAG folder and set the constants below. Needs the
apache-airflow-providers-apache-spark package, a Spark connection (``spark_default``,
host ``yarn``) and pyarrow on the workers.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from airflow import DAG
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator
from airflow.timetables.interval import CronDataIntervalTimetable
from check_run import check_run

try:  # Airflow 3
    from airflow.providers.standard.operators.python import PythonOperator
except ImportError:  # Airflow 2
    from airflow.operators.python import PythonOperator

# A checkout of webclean on the worker that submits (jobs/ and conf/spark-cluster.conf).
WEBCLEAN_HOME = "/opt/webclean"
# A night's crawl is listed in CRAWL/YYYY-MM-DD/warc.paths.gz.
CRAWL = "s3a://bucket/crawl"
OUTPUT = "s3a://bucket/clean"
# scripts/pack-env's archive, uploaded where the executors can read it.
ENV_ARCHIVE = "s3a://bucket/envs/webclean-env.tar.gz"

with DAG(
    dag_id="webclean_nightly",
    # Data intervals of a day: {{ ds }} is the day the run processes, the day before the run.
    schedule=CronDataIntervalTimetable("30 2 * * *", timezone="UTC"),
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    # A re-run of a date replaces that date's partition and nothing else.
    default_args={"retries": 1, "retry_delay": timedelta(minutes=30)},
) as dag:
    extract = SparkSubmitOperator(
        task_id="extract",
        conn_id="spark_default",
        conf={"spark.pyspark.python": "./env/bin/python"},
        properties_file=f"{WEBCLEAN_HOME}/conf/spark-cluster.conf",
        archives=f"{ENV_ARCHIVE}#env",
        name="webclean-extract-{{ ds }}",
        deploy_mode="cluster",
        application=f"{WEBCLEAN_HOME}/jobs/extract.py",
        application_args=[
            "--input", CRAWL + "/{{ ds }}/warc.paths.gz",
            "--output", OUTPUT,
            "--run-date", "{{ ds }}",
            "--max-error-share", "0.05",
            "--fail-on-file-errors",
        ],
    )  # fmt: skip
    check = PythonOperator(
        task_id="check_run",
        python_callable=check_run,
        op_kwargs={"output": OUTPUT, "run_date": "{{ ds }}"},
    )
    extract >> check
