"""docs/scheduling.md's examples, as far as they run without Airflow or a cluster.

The DAG is loaded with stand-ins for the Airflow classes it uses, which record what they
are given; the cron script runs against a fake spark-submit that writes what the job
would write.
"""

from __future__ import annotations

import importlib.util
import json
import os
import py_compile
import re
import shlex
import subprocess
import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "docs" / "examples"
DAG_FILE = EXAMPLES / "webclean_nightly_dag.py"
CRON_SCRIPT = EXAMPLES / "webclean-nightly.sh"
RUN_DATE = "2026-11-30"


def documented_command() -> list[str]:
    """The command of docs/scheduling.md, "The command", as arguments."""
    text = (REPO / "docs" / "scheduling.md").read_text(encoding="utf-8")
    section = text[text.index("## The command") :]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return shlex.split(block.replace("\\\n", " "))


# ---------------------------------------------------------------- the DAG


class _Task:
    def __init__(self, task_id: str, **kwargs: object) -> None:
        self.task_id, self.kwargs, self.downstream = task_id, kwargs, []
        _Dag.current.tasks.append(self)

    def __rshift__(self, other: _Task) -> _Task:
        self.downstream.append(other)
        return other


class _Dag:
    current: _Dag

    def __init__(self, dag_id: str, **kwargs: object) -> None:
        self.dag_id, self.kwargs, self.tasks = dag_id, kwargs, []

    def __enter__(self) -> _Dag:
        _Dag.current = self
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class _Timetable:
    def __init__(self, cron: str, timezone: str) -> None:
        self.cron, self.timezone = cron, timezone


def _airflow_stand_ins(monkeypatch, airflow3: bool) -> None:
    modules = {
        "airflow": {"DAG": _Dag},
        "airflow.providers.apache.spark.operators.spark_submit": {
            "SparkSubmitOperator": type("SparkSubmitOperator", (_Task,), {})
        },
        "airflow.timetables.interval": {"CronDataIntervalTimetable": _Timetable},
        # Airflow 3 moved PythonOperator to the standard provider.
        "airflow.providers.standard.operators.python" if airflow3 else "airflow.operators.python": {
            "PythonOperator": type("PythonOperator", (_Task,), {})
        },
    }
    for name, names in modules.items():
        module = types.ModuleType(name)
        module.__dict__.update(names)
        monkeypatch.setitem(sys.modules, name, module)


def load_dag(monkeypatch, airflow3: bool = True) -> _Dag:
    _airflow_stand_ins(monkeypatch, airflow3)
    monkeypatch.syspath_prepend(str(EXAMPLES))
    spec = importlib.util.spec_from_file_location("webclean_nightly_dag", DAG_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dag


def render(value: object, ds: str) -> object:
    """Airflow's templating of what the DAG uses: {{ ds }} in strings, lists and dicts."""
    if isinstance(value, str):
        return value.replace("{{ ds }}", ds)
    if isinstance(value, list):
        return [render(v, ds) for v in value]
    if isinstance(value, dict):
        return {k: render(v, ds) for k, v in value.items()}
    return value


def spark_submit_command(kwargs: dict, master: str) -> list[str]:
    """The command SparkSubmitHook builds from the operator's arguments that the DAG sets,
    in the hook's order (_build_spark_common_args, provider 6.x): master, confs,
    properties file, archives, name, deploy mode; the application and its arguments."""
    command = ["spark-submit", "--master", master]
    for key, value in kwargs["conf"].items():
        command += ["--conf", f"{key}={value}"]
    command += ["--properties-file", kwargs["properties_file"], "--archives", kwargs["archives"]]
    command += ["--name", kwargs["name"], "--deploy-mode", kwargs["deploy_mode"]]
    known = {"conn_id", "conf", "properties_file", "archives", "name", "deploy_mode", "application", "application_args"}
    assert set(kwargs) <= known, f"the test does not place {sorted(set(kwargs) - known)} in the command"
    return command + [kwargs["application"], *kwargs["application_args"]]


def test_the_dag_file_compiles(tmp_path):
    py_compile.compile(str(DAG_FILE), cfile=str(tmp_path / "dag.pyc"), doraise=True)


@pytest.mark.parametrize("airflow3", [True, False], ids=["airflow-3", "airflow-2"])
def test_the_dag_submits_the_documented_command_then_checks_the_run(monkeypatch, airflow3):
    dag = load_dag(monkeypatch, airflow3)
    extract, check = dag.tasks
    assert (extract.task_id, check.task_id) == ("extract", "check_run")
    assert extract.downstream == [check]
    assert type(extract).__name__ == "SparkSubmitOperator" and extract.kwargs["conn_id"] == "spark_default"
    kwargs = render(extract.kwargs, RUN_DATE)
    assert spark_submit_command(kwargs, master="yarn") == documented_command()
    # The check reads the run of the same date in the same output.
    assert render(check.kwargs["op_kwargs"], RUN_DATE) == {"output": "s3a://bucket/clean", "run_date": RUN_DATE}
    assert check.kwargs["python_callable"].__name__ == "check_run"
    timetable = dag.kwargs["schedule"]
    assert (timetable.cron, timetable.timezone) == ("30 2 * * *", "UTC")
    assert dag.kwargs["max_active_runs"] == 1


# ---------------------------------------------------------------- cron and check_run.py

FAKE_SPARK_SUBMIT = """#!{python}
# Stands for spark-submit: records its arguments and writes what the extract job would.
import json, os, pathlib, sys

args = sys.argv[1:]
pathlib.Path(os.environ["FAKE_ARGS"]).write_text(json.dumps(args))
output, run_date = args[args.index("--output") + 1], args[args.index("--run-date") + 1]
passed = os.environ["FAKE_PASSED"] == "1"
failures = [] if passed else ["7 of 100 pages (7.0%) have an error status, over the maximum share of 0.05"]
summary = {{"summary_version": 1, "passed": passed, "failures": failures, "pages": 100, "error_pages": 3 if passed else 7}}
path = pathlib.Path(output, "_summary", f"run_date={{run_date}}", "summary.json")
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text(json.dumps(summary))
if passed and os.environ["FAKE_MARKER"] == "1":
    marker = pathlib.Path(output, f"run_date={{run_date}}", "_SUCCESS")
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
sys.exit(int(os.environ["FAKE_EXIT"]))
"""


def run_cron_script(tmp_path: Path, exit_code: int, passed: bool, marker: bool = True) -> subprocess.CompletedProcess:
    fake = tmp_path / "spark-submit"
    fake.write_text(FAKE_SPARK_SUBMIT.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    env = {
        **os.environ,
        "SPARK_SUBMIT": str(fake),
        "CHECK_PYTHON": sys.executable,
        "OUTPUT": str(tmp_path / "clean"),
        "FAKE_ARGS": str(tmp_path / "args.json"),
        "FAKE_EXIT": str(exit_code),
        "FAKE_PASSED": "1" if passed else "0",
        "FAKE_MARKER": "1" if marker else "0",
    }
    return subprocess.run(["bash", str(CRON_SCRIPT), RUN_DATE], env=env, capture_output=True, text=True, timeout=60)


def test_the_cron_script_submits_the_documented_command_and_checks_the_run(tmp_path):
    done = run_cron_script(tmp_path, exit_code=0, passed=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"check_run: {RUN_DATE} passed: 100 pages, 3 with an error status"
    submitted = json.loads((tmp_path / "args.json").read_text(encoding="utf-8"))
    expected = [str(tmp_path / "clean") if arg == "s3a://bucket/clean" else arg for arg in documented_command()]
    assert submitted == expected[1:]


@pytest.mark.parametrize(
    ("exit_code", "passed", "marker", "said"),
    [
        (3, False, False, f"webclean-nightly: {RUN_DATE}: the extract job exited 3"),
        (2, False, False, f"webclean-nightly: {RUN_DATE}: the extract job exited 2"),
        # Cluster mode may report 0 for a driver that failed its policy: the check catches it.
        (0, False, False, f"the run of {RUN_DATE} failed: 7 of 100 pages (7.0%) have an error status"),
        (0, True, False, f"the run of {RUN_DATE} passed but has no _SUCCESS"),
    ],
    ids=["policy", "usage", "failed-but-0", "no-marker"],
)
def test_the_cron_script_fails_as_the_run_did(tmp_path, exit_code, passed, marker, said):
    done = run_cron_script(tmp_path, exit_code, passed, marker)
    assert done.returncode == (exit_code or 3)
    assert said in done.stderr


def test_check_run_says_when_a_date_has_no_summary(tmp_path):
    spec = importlib.util.spec_from_file_location("check_run", EXAMPLES / "check_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(module.RunNotPassed, match=f"no summary for {RUN_DATE}: the job did not finish"):
        module.check_run(str(tmp_path), RUN_DATE)
    assert module.main([str(tmp_path), RUN_DATE]) == 3
    assert module.main([]) == 2
